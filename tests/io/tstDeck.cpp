// Tests of ht::load_deck: XML and YAML decks, defaults, overrides, and each
// class of bad input refused with the key, the value and what is accepted,
// alike on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <Teuchos_StandardParameterEntryValidators.hpp>
#include <fstream>

#include "io/HT_Deck.hpp"
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
  return {"demo", "a demo app", p};
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

std::string usage_error(const std::vector<std::string>& args) {
  try {
    ht::load_deck(spec(), args, MPI_COMM_WORLD);
  } catch (const ht::UsageError& e) {
    return e.what();
  }
  return "";
}

const char* kXml = R"(<ParameterList name="demo">
  <ParameterList name="Solver"><Parameter name="n" type="int" value="42"/></ParameterList>
</ParameterList>)";

TEST(Deck, XmlDeckFillsDefaultsOnEveryRank) {
  auto d = ht::load_deck(spec(), {write("a.xml", kXml)}, MPI_COMM_WORLD);
  EXPECT_EQ(d.params->sublist("Solver").get<int>("n"), 42);
  EXPECT_DOUBLE_EQ(d.params->sublist("Solver").get<double>("tol"), 1e-6);
  EXPECT_EQ(d.params->sublist("Solver").get<std::string>("name"), "cg");
  EXPECT_NE(d.text.find("tol"), std::string::npos);  // the full deck, for results
}

TEST(Deck, YamlDeckReadsTheSame) {
  auto d = ht::load_deck(spec(), {write("a.yaml", "demo:\n  Solver:\n    n: 7\n    name: gmres\n")},
                         MPI_COMM_WORLD);
  EXPECT_EQ(d.params->sublist("Solver").get<int>("n"), 7);
  EXPECT_EQ(d.params->sublist("Solver").get<std::string>("name"), "gmres");
}

TEST(Deck, SetOverridesOneKeyWithTheDeclaredType) {
  auto d = ht::load_deck(spec(),
                         {write("b.xml", kXml), "--set", "Solver/n=99", "--set=Solver/verbose=true",
                          "--set", "Solver/tol=1e-3"},
                         MPI_COMM_WORLD);
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
  EXPECT_NE(e.find("Solver/n = \"ten\": expected int"), std::string::npos) << e;
}

TEST(Deck, OutOfRangeNamesKeyValueAndRange) {
  const std::string e = usage_error({write("e.xml", kXml), "--set", "Solver/n=1000"});
  EXPECT_NE(e.find("\"n\""), std::string::npos) << e;
  EXPECT_NE(e.find("1000"), std::string::npos) << e;
  EXPECT_NE(e.find("100"), std::string::npos) << e;
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
  EXPECT_NE(usage_error({deck, "--set", "Nope/n=1"}).find("no section 'Nope'"), std::string::npos);
  EXPECT_NE(usage_error({deck, "--set", "Solver/m=1"}).find("no parameter 'm'"), std::string::npos);
  EXPECT_NE(usage_error({deck, "--set", "Solver/n"}).find("Section/key=value"), std::string::npos);
}

TEST(Deck, BadFilesAndOptionsAreRefused) {
  EXPECT_NE(usage_error({}).find("no input deck"), std::string::npos);
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
        write(std::string("default.") + format, ht::default_deck(spec(), format));
    auto d = ht::load_deck(spec(), {path}, MPI_COMM_WORLD);
    EXPECT_EQ(d.params->sublist("Solver").get<int>("n"), 10) << format;
  }
}

TEST(Deck, HelpListsEveryParameterWithItsDoc) {
  const std::string h = ht::help_text(spec());
  for (const char* s : {"--set", "--print-deck", "--kokkos-num-threads", "problem size", "tol",
                        "verbose", "mpirun"})
    EXPECT_NE(h.find(s), std::string::npos) << s;
}

}  // namespace
