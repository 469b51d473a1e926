// A driver's AppSpec and the common main: the parameters with their defaults,
// docs and validators; ht::run_app reads the deck (or the defaults), applies
// --set, answers --help, writes the results file and applies the error policy.
//   build/examples/example_app_spec --set Greeting/times=3   -> "hello 3 times"
//   build/examples/example_app_spec --set Greeting/times=0   -> exit 2, the key named
#include <cstdio>
#include <string>

#include <Teuchos_StandardParameterEntryValidators.hpp>

#include "app/HT_App.hpp"

namespace {

Teuchos::RCP<const Teuchos::ParameterList> greeting_parameters() {
  auto p = Teuchos::rcp(new Teuchos::ParameterList("example_app_spec"));
  auto& g = p->sublist("Greeting", false, "What to say, and how often");
  g.set("word", std::string("hello"), "the word to say");
  g.set("times", 1, "how many times; 1 to 10",
        Teuchos::rcp(new Teuchos::EnhancedNumberValidator<int>(1, 10)));
  ht::add_common_parameters(*p, "example_app_spec");  // Runtime, Profile, Output
  return p;
}

// The driver: everything a run does, between the deck and the results file.
void greet(ht::AppContext& ctx) {
  const Teuchos::ParameterList& g = ctx.deck.params->sublist("Greeting");
  const int times = g.get<int>("times");
  if (ctx.env.rank() == 0) std::printf("%s %d times\n", g.get<std::string>("word").c_str(), times);
  ctx.results.global("greeting/times", static_cast<long long>(times), "1");
}

}  // namespace

int main(int argc, char** argv) {
  const ht::AppSpec spec{"example_app_spec", "says a word a number of times",
                         greeting_parameters()};
  return ht::run_app(argc, argv, spec, greet);
}
