#pragma once
/// \file HT_Error.hpp
/// \brief Errors that end a run, and how every rank learns of them.
///
/// Two kinds: a \c UsageError is the user's (bad deck, bad rank count) and is
/// known to every rank at once, so all ranks leave cleanly with exit code 2; an
/// \c Error or any other exception may happen on one rank only, so that rank
/// prints one line and aborts the whole job (MPI_Abort): no rank is left
/// waiting in a collective for a peer that is gone.
///
/// Example: src/drivers/HT_GemmDriver.cpp (gemm_config's UsageErrors).
#include <mpi.h>

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>

namespace ht {

/// A failure of the run itself (resources, validation).  Exit code 1.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input that every rank sees alike.  Exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Prints "<program>: rank R: <what>" on stderr and ends every rank of the job
/// with \p code: by exiting, where Open MPI's mpirun launched the job (it ends
/// the others), else by MPI_Abort.  Safe to call from any thread, inside
/// Kokkos tasks included.
[[noreturn]] void abort_all(const std::string& what, int code = 1);

/// \brief Agrees on a failure that some ranks found (collective): when any
/// rank passes a non-empty \p failure, every rank throws the lowest such
/// rank's message, as a UsageError if \p usage was true there, else as an
/// Error.  So that no rank waits in a collective for a peer that has left.
/// With \p some_only non-empty, a failure that not every rank found (one
/// node's file, setting or memory) opens with that rank's "rank R (node N): "
/// and ends with \p some_only (e.g. "; the graph file must be readable on
/// every node").
void throw_if_any(const std::string& failure, bool usage, MPI_Comm comm,
                  const std::string& some_only = "");

/// \brief \p step() run on every rank of \p comm, its failure agreed by
/// throw_if_any: a UsageError stays one, any other exception becomes an
/// Error in error_words()'s words (collective).
template <class Step>
void on_all_ranks(MPI_Comm comm, Step&& step, const std::string& some_only = "");

/// \brief The words for an allocation that failed, e.g. "out of memory in
/// Graph500: construction: asked 8.0 TiB more with 31.2 MiB resident; a
/// smaller share per rank may fit: more ranks, or a smaller problem".  The bytes asked
/// are Kokkos' (its allocation failure carries them) or, for plain `new`, the
/// size the failed operator new recorded; the phase is HT_Phase.hpp's.
std::string out_of_memory(const std::bad_alloc& e);

/// \brief What a user reads for \p e: out_of_memory's words for an
/// allocation that failed (std::bad_alloc, or Kokkos' failed view, which it
/// reports as a std::runtime_error naming the view and the size), else
/// e.what().
std::string error_words(const std::exception& e);

template <class Step>
void on_all_ranks(MPI_Comm comm, Step&& step, const std::string& some_only) {
  std::string failure;
  bool usage = false;
  try {
    step();
  } catch (const UsageError& e) {
    failure = e.what();
    usage = true;
  } catch (const std::exception& e) {
    failure = error_words(e);
  }
  throw_if_any(failure, usage, comm, some_only);
}

/// The program name used as prefix of messages (set by the Environment).
void set_program_name(const std::string& name);
const std::string& program_name();

}  // namespace ht
