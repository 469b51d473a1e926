// Tests of ht::load_deck and the command line (ht::parse_command_line): XML
// and YAML decks, defaults, overrides and shortcuts, and each class of bad
// input refused in our words (where, the key, the value and what is
// accepted), alike on every rank; and --help.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <fstream>
#include <sstream>

#include "app/HT_CommandLine.hpp"
#include "runtime/HT_Error.hpp"

namespace {

ht::AppSpec spec() {
  auto p = Teuchos::rcp(new Teuchos::ParameterList("demo"));
  auto& s = p->sublist("Solver", false, "solver settings");
  s.set("n", 10, "problem size", Teuchos::rcp(new Teuchos::EnhancedNumberValidator<int>(1, 100)));
  s.set("tol", 1e-6, "tolerance");
  s.set("verbose", false, "print more");
  s.set("name", std::string("cg"), "method",
        Teuchos::rcp(new Teuchos::StringValidator(Teuchos::tuple<std::string>("cg", "gmres"))));
  auto& out = p->sublist("Output", false, "results");
  out.set("file", std::string(), "results file");
  out.set("overwrite", false, "replace it");
  return {"demo", "a demo app", p, {{"-n", "--size", "Solver/n"}}};
}

int rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// A deck file named per test; written by rank 0, seen by all after the barrier.
std::string write(const std::string& name, const std::string& text) {
  const std::string path = "tstDeck_" + name;
  if (rank() == 0) std::ofstream(path) << text;
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// The deck a command line names, as run_app reads it.
ht::Deck load(const std::vector<std::string>& args) {
  return ht::load_deck(spec(), ht::parse_command_line(spec(), args), MPI_COMM_WORLD);
}

std::string usage_error(const std::vector<std::string>& args) {
  try {
    load(args);
  } catch (const ht::UsageError& e) {
    return e.what();
  }
  return "";
}

const char* kXml = R"(<ParameterList name="demo">
  <ParameterList name="Solver"><Parameter name="n" type="int" value="42"/></ParameterList>
</ParameterList>)";

TEST(Deck, XmlDeckFillsDefaultsOnEveryRank) {
  auto d = load({write("a.xml", kXml)});
  EXPECT_EQ(d.params->sublist("Solver").get<int>("n"), 42);
  EXPECT_DOUBLE_EQ(d.params->sublist("Solver").get<double>("tol"), 1e-6);
  EXPECT_EQ(d.params->sublist("Solver").get<std::string>("name"), "cg");
  EXPECT_NE(d.text.find("tol"), std::string::npos);  // the full deck, for results
}

TEST(Deck, YamlDeckReadsTheSame) {
  auto d = load({write("a.yaml", "demo:\n  Solver:\n    n: 7\n    name: gmres\n")});
  EXPECT_EQ(d.params->sublist("Solver").get<int>("n"), 7);
  EXPECT_EQ(d.params->sublist("Solver").get<std::string>("name"), "gmres");
}

TEST(Deck, SetOverridesOneKeyWithTheDeclaredType) {
  auto d = load({write("b.xml", kXml), "--set", "Solver/n=99", "--set=Solver/verbose=true", "--set",
                 "Solver/tol=1e-3"});
  EXPECT_EQ(d.params->sublist("Solver").get<int>("n"), 99);
  EXPECT_TRUE(d.params->sublist("Solver").get<bool>("verbose"));
  EXPECT_DOUBLE_EQ(d.params->sublist("Solver").get<double>("tol"), 1e-3);
}

TEST(Deck, UnknownKeyIsNamed) {
  const std::string e =
      usage_error({write("c.xml", R"(<ParameterList name="demo"><ParameterList name="Solver">
      <Parameter name="nn" type="int" value="3"/></ParameterList></ParameterList>)")});
  EXPECT_NE(e.find("nn"), std::string::npos) << e;
}

TEST(Deck, WrongTypeNamesKeyAndType) {
  const std::string e =
      usage_error({write("d.xml", R"(<ParameterList name="demo"><ParameterList name="Solver">
      <Parameter name="n" type="string" value="ten"/></ParameterList></ParameterList>)")});
  EXPECT_NE(e.find("tstDeck_d.xml:2: Solver/n = \"ten\" (a string): expected an integer; "
                   "accepted: 1 to 100"),
            std::string::npos)
      << e;
}

TEST(Deck, OutOfRangeNamesKeyValueAndRange) {
  const std::string e = usage_error({write("e.xml", kXml), "--set", "Solver/n=1000"});
  EXPECT_EQ(e, "--set Solver/n=1000: out of range; accepted: 1 to 100");
}

TEST(Deck, StringOutsideTheListNamesTheChoices) {
  const std::string e = usage_error({write("f.xml", kXml), "--set", "Solver/name=bicg"});
  EXPECT_NE(e.find("bicg"), std::string::npos) << e;
  EXPECT_NE(e.find("gmres"), std::string::npos) << e;
}

TEST(Deck, BadOverridesAreRefused) {
  const std::string deck = write("g.xml", kXml);
  EXPECT_NE(usage_error({deck, "--set", "Solver/n=abc"}).find("expected an int"),
            std::string::npos);
  EXPECT_NE(usage_error({deck, "--set", "Solver/verbose=maybe"}).find("true or false"),
            std::string::npos);
  EXPECT_NE(usage_error({deck, "--set", "Nope/n=1"}).find("Nope: no such section"),
            std::string::npos);
  EXPECT_NE(usage_error({deck, "--set", "Solver/m=1"}).find("Solver/m: no such parameter"),
            std::string::npos);
  EXPECT_NE(usage_error({deck, "--set", "Solver/n"}).find("Section/key=value"), std::string::npos);
}

TEST(Deck, BadFilesAndOptionsAreRefused) {
  EXPECT_NE(usage_error({"missing.xml"}).find("cannot read the deck 'missing.xml'"),
            std::string::npos);
  EXPECT_NE(usage_error({write("h.txt", kXml)}).find("unknown format"), std::string::npos);
  EXPECT_NE(usage_error({write("i.xml", "<ParameterList name=\"demo\">")}).find("not valid XML"),
            std::string::npos);
  EXPECT_NE(usage_error({write("j.yaml", "demo:\n  Solver: [1,\n")}).find("not valid YAML"),
            std::string::npos);
  EXPECT_NE(usage_error({write("k.xml", kXml), "--frobnicate"}).find("unknown option"),
            std::string::npos);
}

TEST(Deck, DefaultDeckValidatesAgainstItself) {
  for (const char* format : {"xml", "yaml"}) {
    const std::string path =
        write(std::string("default.") + format, ht::deck_text(*load({}).params, format));
    auto d = load({path});
    EXPECT_EQ(d.params->sublist("Solver").get<int>("n"), 10) << format;
  }
}

TEST(Deck, TyposGetTheNearestNameAndTheLine) {
  const std::string e =
      usage_error({write("typo.yaml", "demo:\n  Solver:\n    n: 3\n    tlo: 1\n")});
  EXPECT_EQ(e, "tstDeck_typo.yaml:4: Solver/tlo: no such parameter; did you mean tol?");
  const std::string top =
      usage_error({write("top.yaml", "demo:\n  Solver:\n    n: 3\n  Solvr:\n    n: 3\n")});
  EXPECT_EQ(top, "tstDeck_top.yaml:4: Solvr: no such section; did you mean Solver?");
  EXPECT_EQ(ht::nearest("SCAEL", {"SCALE", "edgefactor"}), "SCALE");
  EXPECT_EQ(ht::nearest("nbfs", {"SCALE", "NBFS"}), "NBFS");
  EXPECT_EQ(ht::nearest("xyz", {"SCALE", "NBFS"}), "");
}

TEST(Deck, YamlIntegersAreTakenWhereNumbersOrStringsAreAsked) {
  auto d = load({write("int.yaml", "demo:\n  Solver:\n    tol: 1\n")});
  EXPECT_DOUBLE_EQ(d.params->sublist("Solver").get<double>("tol"), 1.0);
  const std::string e = usage_error({write("int2.yaml", "demo:\n  Solver:\n    name: 3\n")});
  EXPECT_EQ(e, "tstDeck_int2.yaml:3: Solver/name = 3: not accepted; accepted: cg or gmres");
  const std::string f = usage_error({write("dbl.yaml", "demo:\n  Solver:\n    n: 2.5\n")});
  EXPECT_EQ(f,
            "tstDeck_dbl.yaml:3: Solver/n = 2.5 (a real number): expected an integer; accepted: 1 "
            "to 100");
}

TEST(Deck, ADeckOfAnotherAppSaysWhose) {
  const std::string e = usage_error({write("other.yaml", "cannon_gemm:\n  X:\n    y: 1\n")});
  EXPECT_NE(e.find("deck 'tstDeck_other.yaml' is for cannon_gemm, not demo (its top-level list "
                   "names the driver); run it with cannon_gemm (mpirun -np <ranks> cannon_gemm "
                   "tstDeck_other.yaml)"),
            std::string::npos)
      << e;
  // XML alike: Teuchos' reader drops the top-level name; it is read here.
  const std::string x =
      usage_error({write("other.xml",
                         "<ParameterList name=\"uts\">\n  <ParameterList name=\"Tree\"/>\n"
                         "</ParameterList>\n")});
  EXPECT_NE(x.find("deck 'tstDeck_other.xml' is for uts, not demo"), std::string::npos) << x;
  const std::string s = usage_error({write("section.yaml", "Solver:\n  n: 3\n")});
  EXPECT_NE(s.find("starts with the section Solver; its first line must name the driver (demo:)"),
            std::string::npos)
      << s;
}

TEST(Deck, ADeckOfNoDriverGetsTheNearestAndTheList) {
  EXPECT_EQ(usage_error({write("bsf.yaml", "# mistyped\ngraph500_bsf:\n  X:\n    y: 1\n")}),
            "tstDeck_bsf.yaml:2: graph500_bsf: no such driver; did you mean graph500_bfs? The "
            "deck's top-level list names its driver: cannon_gemm, graph500_bfs or uts");
  EXPECT_EQ(usage_error({write("gemn.xml", "<ParameterList name=\"cannon_gemn\"/>\n")}),
            "tstDeck_gemn.xml:1: cannon_gemn: no such driver; did you mean cannon_gemm? The "
            "deck's top-level list names its driver: cannon_gemm, graph500_bfs or uts");
  EXPECT_EQ(usage_error({write("nobody.yaml", "nobody:\n  X:\n    y: 1\n")}),
            "tstDeck_nobody.yaml:1: nobody: no such driver; the deck's top-level list names its "
            "driver: cannon_gemm, graph500_bfs or uts");
}

TEST(Deck, AKeyGivenTwiceNamesBothLines) {
  EXPECT_EQ(
      usage_error({write("twice.yaml", "demo:\n  Solver:\n    n: 3\n    tol: 1\n    n: 4\n")}),
      "tstDeck_twice.yaml:5: Solver/n: given twice (first at line 3); keep one");
  EXPECT_EQ(usage_error({write("twice_section.yaml",
                               "demo:\n  Solver:\n    n: 3\n  # again\n  Solver:\n    tol: 1\n")}),
            "tstDeck_twice_section.yaml:5: Solver: given twice (first at line 2); keep one");
  EXPECT_EQ(usage_error({write("twice.xml", R"(<ParameterList name="demo">
  <ParameterList name="Solver">
    <!-- <Parameter name="n" type="int" value="1"/> -->
    <Parameter name="n" type="int" value="3"/>
    <Parameter name="tol" type="double" value="1"/>
    <Parameter name="n" type="int" value="4"/>
  </ParameterList>
</ParameterList>
)")}),
            "tstDeck_twice.xml:6: Solver/n: given twice (first at line 4); keep one");
  // The same name in two lists is two keys.
  const std::string two = usage_error({write("two_lists.xml", R"(<ParameterList name="demo">
  <ParameterList name="Solver"><Parameter name="n" type="int" value="3"/></ParameterList>
  <ParameterList name="Output"><Parameter name="n" type="int" value="3"/></ParameterList>
</ParameterList>)")});
  EXPECT_NE(two.find("Output/n: no such parameter"), std::string::npos) << two;
  const std::string yaml_two =
      usage_error({write("two_lists.yaml", "demo:\n  Solver:\n    n: 3\n  Output:\n    n: 3\n")});
  EXPECT_NE(yaml_two.find("Output/n: no such parameter"), std::string::npos) << yaml_two;
}

TEST(Deck, AnEmptyDeckSaysWhatItNeeds) {
  for (const char* text : {"", "# all commented out\n\n#demo:\n   \n"})
    EXPECT_EQ(usage_error({write("empty.yaml", text)}),
              "tstDeck_empty.yaml: the deck is empty; it needs the driver's top-level list, e.g. "
              "'demo:' on its first line with the sections under it (demo --print-deck=yaml "
              "prints one with every default)")
        << text;
  for (const char* text :
       {"", "<?xml version=\"1.0\"?>\n<!-- <ParameterList name=\"demo\"/> -->\n"})
    EXPECT_EQ(usage_error({write("empty.xml", text)}),
              "tstDeck_empty.xml: the deck is empty; it needs the driver's top-level list, e.g. "
              "<ParameterList name=\"demo\"> with the sections in it (demo --print-deck prints "
              "one with every default)")
        << text;
}

TEST(Deck, AValueOfTheWrongTypeIsShownAsWrittenWithItsType) {
  const auto fault = [](const std::string& name, const std::string& line) {
    return usage_error({write(name, "demo:\n  Solver:\n" + line + "\n")});
  };
  EXPECT_EQ(fault("quoted.yaml", "    n: \"10\""),
            "tstDeck_quoted.yaml:3: Solver/n = \"10\" (a string): expected an integer; accepted: "
            "1 to 100");
  EXPECT_EQ(fault("single.yaml", "    n: '10'   # quoted"),
            "tstDeck_single.yaml:3: Solver/n = '10' (a string): expected an integer; accepted: 1 "
            "to 100");
  EXPECT_EQ(fault("real.yaml", "    n: 10.0"),
            "tstDeck_real.yaml:3: Solver/n = 10.0 (a real number): expected an integer; accepted: "
            "1 to 100");
  EXPECT_EQ(fault("bool.yaml", "    tol: true")
                .rfind("tstDeck_bool.yaml:3: Solver/tol = true (a boolean): expected a number", 0),
            0u);
  const std::string x =
      usage_error({write("real.xml", R"(<ParameterList name="demo"><ParameterList name="Solver">
      <Parameter name="n" type="double" value="10"/></ParameterList></ParameterList>)")});
  EXPECT_EQ(x,
            "tstDeck_real.xml:2: Solver/n = 10.0 (a real number): expected an integer; accepted: "
            "1 to 100");
}

TEST(Deck, SyntaxErrorsGiveTheLineInOurWords) {
  const std::string e =
      usage_error({write("syntax.yaml", "demo:\n  Solver:\n    n: [1,\n    tol: 2\n")});
  EXPECT_EQ(e,
            "tstDeck_syntax.yaml:3: not valid YAML: the line ends inside a value (an unclosed "
            "[, { or quote?) (in: n: [1,)");
  const std::string tab = usage_error({write("tab.yaml", "demo:\n  Solver:\n\tn: 3\n")});
  EXPECT_EQ(tab.rfind("tstDeck_tab.yaml:3: not valid YAML: its indentation does not match", 0), 0u)
      << tab;
  const std::string x = usage_error({write("open.xml", "<ParameterList name=\"demo\">\n")});
  EXPECT_EQ(x,
            "tstDeck_open.xml:1: not valid XML: the element <ParameterList> that starts here "
            "is never closed");
}

TEST(Deck, OptionsAreBlamedNotTheDeck) {
  const std::string deck = write("blame.xml", kXml);
  EXPECT_EQ(usage_error({deck, "--set", "Solver/n=0"}),
            "--set Solver/n=0: out of range; accepted: 1 to 100");
  EXPECT_EQ(usage_error({deck, "-n", "0"}),
            "-n/--size Solver/n=0: out of range; accepted: 1 to 100");
  // A bad deck value that an option replaces is not held against the deck.
  const std::string bad =
      write("bad_n.xml", R"(<ParameterList name="demo"><ParameterList name="Solver">
      <Parameter name="n" type="int" value="1000"/></ParameterList></ParameterList>)");
  auto d = load({bad, "--set", "Solver/n=5"});
  EXPECT_EQ(d.params->sublist("Solver").get<int>("n"), 5);
}

TEST(Deck, NoDeckRunsTheDefaultsWithShortcutsOnTop) {
  auto d = load({});
  EXPECT_EQ(d.params->sublist("Solver").get<int>("n"), 10);
  EXPECT_TRUE(d.path.empty());
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"-n", "7"}, {"--size", "7"}, {"--size=7"}, {"-n7"}, {"--set", "Solver/n=7"}}) {
    auto s = load(args);
    EXPECT_EQ(s.params->sublist("Solver").get<int>("n"), 7) << args[0];
  }
  EXPECT_NE(usage_error({"--size"}).find("--size needs a value (Solver/n)"), std::string::npos);
}

TEST(Deck, PrintDeckNamesItsFormats) {
  EXPECT_EQ(usage_error({"--print-deck=json"}),
            "--print-deck=json: unknown format 'json'; accepted: xml, yaml");
  const ht::CommandLine line = ht::parse_command_line(spec(), {"--print-deck=yaml"});
  EXPECT_EQ(line.print_format, "yaml");
  const std::string printed =
      ht::deck_text(*ht::load_deck(spec(), line, MPI_COMM_WORLD).params, line.print_format);
  EXPECT_NE(printed.find("n: 10"), std::string::npos) << printed;
}

TEST(CommandLine, EveryFlagIsKnownSoItsTyposGetTheFlag) {
  EXPECT_EQ(usage_error({"--lsit", "variants"}),
            "unknown option '--lsit'; did you mean --list? (see demo --help)");
  EXPECT_EQ(usage_error({"--verison"}),
            "unknown option '--verison'; did you mean --version? (see demo --help)");
  EXPECT_EQ(usage_error({"--sise=3"}),
            "unknown option '--sise=3'; did you mean --size? (see demo --help)");
}

TEST(CommandLine, ArgumentsAreReadOnceEachToItsPlace) {
  const ht::CommandLine l =
      ht::parse_command_line(spec(), {"--kokkos-num-threads", "2", "d.yaml", "--list", "things",
                                      "--kokkos-disable-warnings", "-n", "7", "--help", "Solver"});
  EXPECT_EQ(l.kokkos,
            (std::vector<std::string>{"--kokkos-num-threads", "2", "--kokkos-disable-warnings"}));
  EXPECT_EQ(l.deck, "d.yaml");
  EXPECT_TRUE(l.list);
  EXPECT_EQ(l.listing, "things");
  EXPECT_TRUE(l.help);
  EXPECT_EQ(l.topic, "Solver");
  EXPECT_EQ(l.sets->sublist("Solver").get<int>("n"), 7);
  EXPECT_EQ(l.fault, "");
  // A fault is kept, and --help after it still answers.
  const ht::CommandLine bad = ht::parse_command_line(spec(), {"--bogus", "--help"});
  EXPECT_TRUE(bad.help);
  EXPECT_EQ(bad.fault, "unknown option '--bogus' (see demo --help)");
}

TEST(Deck, AnExistingOutputFileIsRefusedUnlessOverwriteIsSet) {
  const std::string file = write("exists.h5", "earlier results");
  const std::string e = usage_error({"--set", "Output/file=" + file});
  EXPECT_NE(e.find("Output/file = tstDeck_exists.h5: the file exists"), std::string::npos) << e;
  EXPECT_NO_THROW(load({"--set", "Output/file=" + file, "--set", "Output/overwrite=true"}));
}

TEST(Deck, HelpIsOneScreenAndLongHelpIsWhole) {
  const std::string h = ht::help_text(spec());
  std::istringstream in(h);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    EXPECT_LE(line.size(), 100u) << line;
  }
  EXPECT_LE(lines, 60);
  EXPECT_NE(h.find("Solver/n"), std::string::npos);
  EXPECT_NE(h.find("1..100"), std::string::npos);
  EXPECT_NE(h.find("-n, --size V"), std::string::npos);
  const std::string one = ht::help_long(spec(), "Solver/name");
  EXPECT_EQ(one, "Solver/name  (string, default cg; accepted: cg or gmres)\n    method\n");
  EXPECT_NE(ht::help_long(spec(), "Solver").find("Solver/tol"), std::string::npos);
  try {
    ht::help_long(spec(), "Solver/nn");
    FAIL() << "no error";
  } catch (const ht::UsageError& e) {
    EXPECT_STREQ(e.what(), "--help Solver/nn: no such parameter; did you mean Solver/n?");
  }
}

TEST(Deck, HelpListsEveryParameterWithItsDoc) {
  const std::string h = ht::help_text(spec());
  for (const char* s : {"--set", "--print-deck", "--kokkos-num-threads", "problem size", "tol",
                        "verbose", "mpirun"})
    EXPECT_NE(h.find(s), std::string::npos) << s;
}

}  // namespace
