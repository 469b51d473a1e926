#pragma once
/// \file HT_Messages.hpp
/// \brief Messages of plain items, both ways, never blocking: SendList keeps
/// nonblocking sends in flight, each with the buffer it sends from, until MPI
/// is done with it (reap() frees the completed ones and hands their buffers
/// back for reuse); take_message() takes one message that has arrived.  The
/// Exchange and WorkStealing send and receive through them.
///
/// Example: src/comm/HT_Exchange.cpp.
#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

#include "comm/HT_CommCounts.hpp"
#include "comm/HT_Wait.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht {

/// How a send completes: when MPI has the buffer, or (sync) once the
/// receiver has matched it, as MPI_Issend.
enum class SendMode { standard, sync };

template <class T>
class SendList {
 public:
  SendList() = default;
  SendList(const SendList&) = delete;
  SendList& operator=(const SendList&) = delete;
  /// Sends in flight are cancelled and freed: only after an error unwound
  /// their owner (a normal end waits for them: wait()).
  ~SendList() { cancel(); }

  /// Starts sending \p items (moved in; an empty one sends a message of 0
  /// bytes) to rank \p dest of \p comm with \p tag.
  void send(std::vector<T>&& items, int dest, int tag, MPI_Comm comm,
            SendMode mode = SendMode::standard) {
    out_.push_back({MPI_REQUEST_NULL, std::move(items)});
    Out& o = out_.back();  // a vector's move keeps its buffer where it was
    const int bytes = mpi_int(o.items.size() * sizeof(T), "a message's bytes");
    (mode == SendMode::sync ? mpi::Issend : mpi::Isend)(o.items.data(), bytes, MPI_BYTE, dest, tag,
                                                        comm, &o.request);
  }
  /// Frees every completed send; \p recycle(std::vector<T>&&) gets its buffer.
  template <class Recycle>
  void reap(Recycle&& recycle) {
    for (std::size_t i = 0; i < out_.size();) {
      int done = 0;
      MPI_Test(&out_[i].request, &done, MPI_STATUS_IGNORE);
      if (!done) {
        ++i;
        continue;
      }
      recycle(std::move(out_[i].items));
      out_[i] = std::move(out_.back());
      out_.pop_back();
    }
  }
  void reap() {
    reap([](std::vector<T>&&) {});
  }
  /// Waits until every send completed (pausing between tests).
  void wait() {
    std::vector<MPI_Request> r;
    for (const Out& o : out_) r.push_back(o.request);
    wait_all(r);
    out_.clear();
  }
  std::size_t size() const { return out_.size(); }
  bool empty() const { return out_.empty(); }
  /// Cancels and frees every send still in flight (an owner unwound by an
  /// error; before its communicator goes).
  void cancel() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    for (Out& o : out_) {
      MPI_Cancel(&o.request);
      MPI_Request_free(&o.request);
    }
    out_.clear();
  }

 private:
  struct Out {
    MPI_Request request;
    std::vector<T> items;
  };
  std::vector<Out> out_;
};

/// Takes one message with \p tag (or MPI_ANY_TAG) from any rank of \p comm
/// that has arrived (MPI_Improbe, MPI_Mrecv) into \p into, resized to its
/// items; false, at once, if none has.  \p status tells its source and tag.
/// ht::Error if it is no whole number of items.
template <class T>
bool take_message(MPI_Comm comm, int tag, std::vector<T>& into, MPI_Status& status) {
  int flag = 0;
  MPI_Message msg;
  MPI_Improbe(MPI_ANY_SOURCE, tag, comm, &flag, &msg, &status);
  if (!flag) return false;
  int bytes = 0;
  MPI_Get_count(&status, MPI_BYTE, &bytes);
  if (bytes % static_cast<int>(sizeof(T)) != 0) {
    MPI_Mrecv(nullptr, 0, MPI_BYTE, &msg, MPI_STATUS_IGNORE);  // truncated: only taken off
    throw Error("a message of " + std::to_string(bytes) + " bytes from rank " +
                std::to_string(status.MPI_SOURCE) + " is no whole number of " +
                std::to_string(sizeof(T)) + "-byte items");
  }
  into.resize(static_cast<std::size_t>(bytes) / sizeof(T));
  MPI_Mrecv(into.data(), bytes, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
  return true;
}

}  // namespace ht
