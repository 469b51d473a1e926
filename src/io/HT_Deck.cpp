#include "io/HT_Deck.hpp"

#include <Teuchos_StandardParameterEntryValidators.hpp>

#include <Teuchos_XMLParameterListCoreHelpers.hpp>
#include <Teuchos_YamlParameterListCoreHelpers.hpp>
#include <fstream>
#include <sstream>

#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

using Teuchos::ParameterList;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Teuchos prefixes its messages with file, line and the failed test; the user
// needs only what follows.
std::string teuchos_message(const std::string& what) {
  std::string m = what;
  const auto test = m.find("evaluated to true:");
  if (test != std::string::npos) {
    const auto body = m.find("\n\n", test);
    if (body != std::string::npos) m = m.substr(body + 2);
  }
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  while (!m.empty() && (m.front() == '\n' || m.front() == ' ')) m.erase(0, 1);
  return m;
}

std::string to_xml(const ParameterList& p) {
  std::ostringstream out;
  Teuchos::writeParameterListToXmlOStream(p, out);
  return out.str();
}

}  // namespace

Teuchos::RCP<const Teuchos::ParameterEntryValidator> one_of(const std::vector<std::string>& names) {
  return Teuchos::rcp(new Teuchos::StringValidator(Teuchos::Array<std::string>(names)));
}

namespace {

std::string to_yaml(const ParameterList& p) {
  std::ostringstream out;
  // Doubles with a point ("15.0000"), as Teuchos's writer wants them.
  // Without it, Teuchos 13.2 warns on stdout that it will set the flag but
  // never does: doubles came out as integers ("alpha: 15"), read back as int.
  out.setf(std::ios::showpoint);
  Teuchos::writeParameterListToYamlOStream(p, out);
  return out.str();
}

// "--set GEMM/N=512": converts the value to the type the valid list declares.
void apply_override(const std::string& assignment, const ParameterList& valid, ParameterList& p) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw UsageError("--set '" + assignment + "': expected Section/key=value");
  }
  const std::string path = assignment.substr(0, eq), value = assignment.substr(eq + 1);
  const ParameterList* v = &valid;
  ParameterList* target = &p;
  std::string key = path;
  for (auto slash = key.find('/'); slash != std::string::npos; slash = key.find('/')) {
    const std::string section = key.substr(0, slash);
    if (!v->isSublist(section)) {
      throw UsageError("--set " + path + ": no section '" + section + "'; see --help");
    }
    v = &v->sublist(section);
    target = &target->sublist(section);
    key = key.substr(slash + 1);
  }
  if (!v->isParameter(key) || v->isSublist(key)) {
    throw UsageError("--set " + path + ": no parameter '" + key + "'; see --help");
  }
  const Teuchos::ParameterEntry& e = v->getEntry(key);
  std::istringstream in(value);
  auto bad = [&](const char* type) {
    return UsageError("--set " + path + "=" + value + ": expected " + type);
  };
  if (e.isType<int>()) {
    long long x;
    if (!(in >> x) || !in.eof() || x < INT32_MIN || x > INT32_MAX) throw bad("an int");
    target->set(key, static_cast<int>(x));
  } else if (e.isType<long long>()) {
    long long x;
    if (!(in >> x) || !in.eof()) throw bad("an integer");
    target->set(key, x);
  } else if (e.isType<double>()) {
    double x;
    if (!(in >> x) || !in.eof()) throw bad("a number");
    target->set(key, x);
  } else if (e.isType<bool>()) {
    if (value == "true" || value == "1") {
      target->set(key, true);
    } else if (value == "false" || value == "0") {
      target->set(key, false);
    } else {
      throw bad("true or false");
    }
  } else {
    target->set(key, value);
  }
}

// Some Teuchos validators let a conversion error escape without the key (a
// string "ten" for an int gives just "stoi").  Validating entry by entry finds it.
std::string locate_bad_entry(const ParameterList& deck, const ParameterList& valid,
                             const std::string& prefix) {
  for (auto it = deck.begin(); it != deck.end(); ++it) {
    const std::string& name = deck.name(it);
    const Teuchos::ParameterEntry& entry = deck.entry(it);
    if (!valid.isParameter(name)) continue;
    if (entry.isList()) {
      if (!valid.isSublist(name)) continue;
      const std::string found =
          locate_bad_entry(deck.sublist(name), valid.sublist(name), prefix + name + "/");
      if (!found.empty()) return found;
      continue;
    }
    const Teuchos::ParameterEntry& want = valid.getEntry(name);
    auto validator = want.validator();
    if (validator.is_null()) continue;
    try {
      validator->validate(entry, name, deck.name());
    } catch (const std::exception&) {
      return prefix + name + " = \"" + Teuchos::toString(entry.getAny(false)) + "\": expected " +
             want.getAny(false).typeName();
    }
  }
  return "";
}

// Rank 0's half of load_deck: everything that can fail, so it fails once.
Deck read_and_validate(const AppSpec& spec, const std::vector<std::string>& args) {
  Deck deck;
  std::vector<std::string> sets;
  std::string print_format;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--set") {
      if (i + 1 == args.size()) throw UsageError("--set needs Section/key=value");
      sets.push_back(args[++i]);
    } else if (a.rfind("--set=", 0) == 0) {
      sets.push_back(a.substr(6));
    } else if (a == "--print-deck" || a == "--print-deck=xml") {
      print_format = "xml";
    } else if (a == "--print-deck=yaml") {
      print_format = "yaml";
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError("unknown option '" + a + "'; see --help");
    } else if (deck.path.empty()) {
      deck.path = a;
    } else {
      throw UsageError("more than one deck: '" + deck.path + "' and '" + a + "'");
    }
  }
  if (deck.path.empty()) {
    throw UsageError("no input deck given; usage: " + spec.name +
                     " <deck.xml|deck.yaml> [options], see --help");
  }

  std::ifstream file(deck.path);
  if (!file) throw UsageError("cannot read the deck '" + deck.path + "'");
  std::stringstream raw;
  raw << file.rdbuf();
  const bool yaml = ends_with(deck.path, ".yaml") || ends_with(deck.path, ".yml");
  if (!yaml && !ends_with(deck.path, ".xml")) {
    throw UsageError("deck '" + deck.path + "': unknown format; use .xml, .yaml or .yml");
  }
  try {
    deck.params = yaml ? Teuchos::getParametersFromYamlString(raw.str())
                       : Teuchos::getParametersFromXmlString(raw.str());
  } catch (const std::exception& e) {
    throw UsageError("deck '" + deck.path + "' is not valid " + (yaml ? "YAML" : "XML") + ": " +
                     teuchos_message(e.what()));
  }
  for (const auto& s : sets) apply_override(s, *spec.valid, *deck.params);
  try {
    deck.params->validateParametersAndSetDefaults(*spec.valid);
  } catch (const Teuchos::Exceptions::InvalidParameter& e) {
    throw UsageError("deck '" + deck.path + "': " + teuchos_message(e.what()));
  } catch (const std::exception& e) {
    const std::string where = locate_bad_entry(*deck.params, *spec.valid, "");
    throw UsageError("deck '" + deck.path +
                     "': " + (where.empty() ? teuchos_message(e.what()) : where));
  }
  deck.params->setName(spec.name);
  deck.text = to_xml(*deck.params);
  if (!print_format.empty()) {
    deck.print_only = true;
    deck.text = print_format == "yaml" ? to_yaml(*deck.params) : deck.text;
  }
  return deck;
}

void broadcast(std::string& s, MPI_Comm comm) {
  unsigned long long n = s.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  s.resize(n);
  MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
}

}  // namespace

Deck load_deck(const AppSpec& spec, const std::vector<std::string>& args, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Deck deck;
  std::string error;
  if (rank == 0) {
    try {
      deck = read_and_validate(spec, args);
    } catch (const UsageError& e) {
      error = e.what();
    }
  }
  broadcast(error, comm);
  if (!error.empty()) throw UsageError(error);

  int print_only = deck.print_only;
  MPI_Bcast(&print_only, 1, MPI_INT, 0, comm);
  deck.print_only = print_only != 0;
  if (deck.print_only) {
    if (rank == 0) std::printf("%s", deck.text.c_str());
    return deck;
  }
  broadcast(deck.path, comm);
  broadcast(deck.text, comm);
  if (rank != 0) deck.params = Teuchos::getParametersFromXmlString(deck.text);
  return deck;
}

std::string help_text(const AppSpec& spec) {
  std::ostringstream out;
  out << spec.name << ": " << spec.purpose << "\n\n"
      << "Usage:\n"
      << "  mpirun -np <ranks> [--bind-to none] " << spec.name
      << " <deck.xml|deck.yaml> [options]\n"
      << "  srun -n <ranks> --cpus-per-task=<threads> " << spec.name << " <deck> [options]\n\n"
      << "Options:\n"
      << "  --set Section/key=value   override one deck parameter (repeatable)\n"
      << "  --print-deck[=xml|yaml]   print the fully-defaulted deck and exit\n"
      << "  --help                    this text\n"
      << "  --kokkos-num-threads=N    Kokkos threads per rank (also --kokkos-threads=N;\n"
      << "                            default: OMP_NUM_THREADS)\n\n"
      << "Deck parameters (type, default, meaning):\n";
  spec.valid->print(out,
                    Teuchos::ParameterList::PrintOptions().showDoc(true).indent(2).showTypes(true));
  return out.str();
}

std::string default_deck(const AppSpec& spec, const std::string& format) {
  ParameterList p(spec.name);
  p.validateParametersAndSetDefaults(*spec.valid);
  return format == "yaml" ? to_yaml(p) : to_xml(p);
}

}  // namespace ht
