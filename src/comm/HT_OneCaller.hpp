#pragma once
/// \file HT_OneCaller.hpp
/// \brief One MPI caller at a time among threads that must never wait for
/// each other: whoever finds the turn free makes the calls, the others go on
/// with their work at once.  Calls stay serialized, so MPI_THREAD_SERIALIZED
/// suffices.  Exchange::try_poll, WorkStealing's polling and ProgressPump use it.
///
/// Example: src/comm/HT_Exchange.cpp (try_poll).
#include <atomic>

namespace ht {

class OneCaller {
 public:
  /// Holds the turn for its scope if it was free (then true), else nothing.
  class Turn {
   public:
    explicit Turn(OneCaller& c) : c_(c), held_(!c.busy_.test_and_set(std::memory_order_acquire)) {}
    ~Turn() {
      if (held_) c_.busy_.clear(std::memory_order_release);
    }
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
    explicit operator bool() const { return held_; }

   private:
    OneCaller& c_;
    bool held_;
  };

 private:
  std::atomic_flag busy_ = ATOMIC_FLAG_INIT;
};

}  // namespace ht
