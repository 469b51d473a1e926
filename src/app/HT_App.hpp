#pragma once
/// \file HT_App.hpp
/// \brief The common main of every HybridTasks driver: environment, deck,
/// results file, the run's peak memory per rank, and the error policy.
///
/// The command line is read once (app/HT_CommandLine.hpp).  Options answered
/// before any deck is read, on rank 0, exit 0: --help (one screen), --help
/// <Section/key> and --help-all (the long text), --version, --kokkos-help
/// (Kokkos' flags), --list <name> (AppSpec::lists).
/// --print-deck runs the AppSpec's check (the driver's cross-key rules)
/// before it prints, so a deck it prints would run.
///
/// Results: Output/file, or when that is empty a new name chosen by rank 0,
/// results/<app>-<YYYYMMDD>-<HHMMSS>[-<n>].h5 under the folder the run started
/// from; its absolute path is printed last.
///
/// Error policy: a UsageError (bad deck or options, found alike on every rank)
/// is printed once and every rank exits with 2; any other exception on any
/// rank prints "<app>: rank R: error: ..." and aborts the whole job with 1, so
/// no rank waits forever for a failed peer.  The results file is written only
/// by a run that completed.
///
/// Example: examples/app_spec.cpp.
#include <functional>

#include "app/HT_CommandLine.hpp"
#include "io/HT_Results.hpp"
#include "runtime/HT_Environment.hpp"

namespace ht {

/// What a driver's body works with.
struct AppContext {
  Environment& env;
  const Deck& deck;
  Results& results;
};

/// The Kokkos task pool size from \p deck's Runtime/pool_MiB, or \p derived
/// when it is 0.
std::size_t task_pool_bytes(const Teuchos::ParameterList& deck, std::size_t derived);

/// Adds the sections every app has (Runtime, Profile, Output) to \p valid.
void add_common_parameters(Teuchos::ParameterList& valid, const std::string& app);

/// Runs \p body under the error policy above; returns the process exit code.
int run_app(int argc, char** argv, const AppSpec& spec,
            const std::function<void(AppContext&)>& body);

}  // namespace ht
