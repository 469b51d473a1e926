// The last rank fails inside the driver body while the others wait in a
// barrier that can never complete: the job must end on every rank with the
// failing rank's message and exit code 1, not hang.
#include <mpi.h>

#include "app/HT_App.hpp"
#include "runtime/HT_Error.hpp"

int main(int argc, char** argv) {
  auto valid = Teuchos::rcp(new Teuchos::ParameterList("one_rank_fails"));
  ht::add_common_parameters(*valid, "one_rank_fails");
  const ht::AppSpec spec{"one_rank_fails", "fails on its last rank", valid};
  return ht::run_app(argc, argv, spec, [](ht::AppContext& ctx) {
    if (ctx.env.rank() == ctx.env.size() - 1) throw ht::Error("injected failure");
    MPI_Barrier(ctx.env.comm());  // the failed rank never arrives
  });
}
