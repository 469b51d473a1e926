#pragma once
/// \file HT_StealHooks.hpp
/// \brief Test seams of the stealing protocol (HT_WorkStealing.hpp), as a
/// clock is injected: a test derives from StealHooks and hands it over in
/// StealOptions::hooks to delay each protocol step, hold work replies back,
/// or drop requests, and so forces the orders of events that a loaded
/// machine produces once in a thousand runs.  The library calls them only
/// where set; no driver sets them.
///
/// Example: tests/comm/tstWorkStealing.cpp (Jitter, Late).
#include <cstddef>

namespace ht {

/// The protocol's steps, as a hook sees them.
enum class StealStep {
  receive,  ///< before looking for messages
  request,  ///< before a steal request goes to \c peer
  reply,    ///< before a reply goes to the thief \c peer
  token,    ///< before the termination token goes to \c peer
  done,     ///< before "done" goes to \c peer (rank 0), or when it arrived (peer -1)
  barrier   ///< before joining the closing barrier (peer -1)
};

struct StealHooks {
  virtual ~StealHooks() = default;
  /// Called by the progress caller before each step; may delay or yield.
  virtual void before(StealStep, int /*peer*/) {}
  /// Progress calls by which a reply of \p items items to \p thief is held
  /// back after it was counted as sent (0: sent at once).
  virtual int hold_reply(int /*thief*/, std::size_t /*items*/) { return 0; }
  /// True: a request from \p thief is dropped, never answered (a peer that
  /// stops answering).
  virtual bool drop_request(int /*thief*/) { return false; }
};

}  // namespace ht
