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
/// Example:
/// \code
///   if (n < 1) throw ht::UsageError("GEMM/N = " + std::to_string(n) + ": must be >= 1");
/// \endcode
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

/// The program name used as prefix of messages (set by the Environment).
void set_program_name(const std::string& name);
const std::string& program_name();

}  // namespace ht
