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
/// with \p code.  Safe to call from any thread, inside Kokkos tasks included.
[[noreturn]] void abort_all(const std::string& what, int code = 1);

/// \brief Agrees on a failure that some ranks found (collective): when any
/// rank passes a non-empty \p failure, every rank throws the lowest such
/// rank's message, as a UsageError if \p usage was true there, else as an
/// Error.  So that no rank waits in a collective for a peer that has left.
void throw_if_any(const std::string& failure, bool usage, MPI_Comm comm);

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

/// The program name used as prefix of messages (set by the Environment).
void set_program_name(const std::string& name);
const std::string& program_name();

}  // namespace ht
