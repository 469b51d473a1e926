#include "app/HT_CommandLine.hpp"

#include <climits>
#include <cmath>
#include <sstream>

#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

using Teuchos::ParameterEntry;
using Teuchos::ParameterList;

bool is_deck(const std::string& a) {
  for (const char* ext : {".xml", ".yaml", ".yml"}) {
    const std::string e = ext;
    if (a.size() >= e.size() && a.compare(a.size() - e.size(), e.size(), e) == 0) return true;
  }
  return false;
}

// One "--set Section/key=value" (or a shortcut's), converted to the declared
// type and checked as the deck's keys are, blamed on the option.
struct Override {
  std::vector<std::string> sections;
  std::string key, path, value;
};

Override parse_override(const std::string& assignment, const std::string& option,
                        const ParameterList& valid, ParameterList& scratch) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(option + " '" + assignment + "': expected Section/key=value");
  Override o;
  o.path = assignment.substr(0, eq);
  o.value = assignment.substr(eq + 1);
  const ParameterList* v = &valid;
  std::string rest = o.path, prefix;
  for (auto slash = rest.find('/'); slash != std::string::npos; slash = rest.find('/')) {
    const std::string section = rest.substr(0, slash);
    if (!v->isSublist(section))
      throw UsageError(option + " " + assignment + ": " +
                       unknown_fault(prefix, section, *v, valid, true));
    v = &v->sublist(section);
    o.sections.push_back(section);
    prefix += section + "/";
    rest = rest.substr(slash + 1);
  }
  o.key = rest;
  if (!v->isParameter(rest) || v->isSublist(rest))
    throw UsageError(option + " " + assignment + ": " +
                     unknown_fault(prefix, rest, *v, valid, false));
  const ParameterEntry& want = v->getEntry(rest);
  std::istringstream in(o.value);
  std::string why;
  if (want.isType<int>()) {
    long long x;
    if (!(in >> x) || !in.eof())
      why = "expected an integer";
    else if (x < INT_MIN || x > INT_MAX)
      why = "out of range";
    else
      scratch.set(rest, static_cast<int>(x));
  } else if (want.isType<double>()) {
    double x;
    if (!(in >> x) || !in.eof() || !std::isfinite(x))
      why = "expected a number";
    else
      scratch.set(rest, x);
  } else if (want.isType<bool>()) {
    if (o.value == "true" || o.value == "1")
      scratch.set(rest, true);
    else if (o.value == "false" || o.value == "0")
      scratch.set(rest, false);
    else
      why = "expected true or false";
  } else {
    scratch.set(rest, o.value);
  }
  if (why.empty()) why = check_value(scratch.getEntry(rest), want);
  if (!why.empty()) {
    const std::string acc = accepted(want, false);
    throw UsageError(option + " " + o.path + "=" + o.value + ": " + why +
                     (acc.empty() ? "" : "; accepted: " + acc));
  }
  return o;
}

// The shortcut whose flag \p args[i] is ("-s 20", "-s20", "--scale 20",
// "--scale=20"), its value in \p value and i at the last argument it took;
// nullptr when none is.
const Shortcut* take_shortcut(const AppSpec& spec, const std::vector<std::string>& args,
                              std::size_t& i, std::string& value) {
  const std::string& a = args[i];
  for (const Shortcut& s : spec.shortcuts) {
    if (a == s.long_flag || (!s.short_flag.empty() && a == s.short_flag)) {
      if (i + 1 == args.size()) throw UsageError(a + " needs a value (" + s.key + ")");
      value = args[++i];
      return &s;
    }
    if (a.rfind(s.long_flag + "=", 0) == 0) {
      value = a.substr(s.long_flag.size() + 1);
      return &s;
    }
    if (!s.short_flag.empty() && a.size() > s.short_flag.size() && a.rfind(s.short_flag, 0) == 0 &&
        a[1] != '-') {
      value = a.substr(s.short_flag.size());
      return &s;
    }
  }
  return nullptr;
}

// One argument (and its value) of \p args at \p i into \p line.
void take(const AppSpec& spec, const std::vector<std::string>& args, std::size_t& i,
          CommandLine& line, std::vector<std::pair<std::string, std::string>>& sets) {
  const std::string& a = args[i];
  std::string value;
  if (a == "--help" || a == "-h") {
    line.help = true;
    if (i + 1 < args.size() && args[i + 1][0] != '-' && !is_deck(args[i + 1]))
      line.topic = args[++i];
  } else if (a.rfind("--help=", 0) == 0) {
    line.help = true;
    line.topic = a.substr(7);
  } else if (a == "--help-all") {
    line.help_all = true;
  } else if (a == "--list") {
    line.list = true;
    if (i + 1 < args.size()) line.listing = args[++i];
  } else if (a.rfind("--list=", 0) == 0) {
    line.list = true;
    line.listing = a.substr(7);
  } else if (a == "--version") {
    line.version = true;
  } else if (a.rfind("--kokkos-", 0) == 0) {
    // Kokkos reads these (runtime/HT_Environment); one it does not know is
    // left over, and refused as unknown then.
    line.kokkos_help = line.kokkos_help || a == "--kokkos-help";
    line.kokkos.push_back(a);
    if ((a == "--kokkos-num-threads" || a == "--kokkos-threads") && i + 1 < args.size())
      line.kokkos.push_back(args[++i]);
  } else if (const Shortcut* s = take_shortcut(spec, args, i, value)) {
    sets.emplace_back((s->short_flag.empty() ? "" : s->short_flag + "/") + s->long_flag,
                      s->key + "=" + value);
  } else if (a == "--set") {
    if (i + 1 == args.size()) throw UsageError("--set needs Section/key=value");
    sets.emplace_back("--set", args[++i]);
  } else if (a.rfind("--set=", 0) == 0) {
    sets.emplace_back("--set", a.substr(6));
  } else if (a == "--print-deck" || a == "--print-deck=xml") {
    line.print_format = "xml";
  } else if (a == "--print-deck=yaml") {
    line.print_format = "yaml";
  } else if (a.rfind("--print-deck=", 0) == 0) {
    throw UsageError(a + ": unknown format '" + a.substr(13) + "'; accepted: xml, yaml");
  } else if (!a.empty() && a[0] == '-') {
    throw UsageError(unknown_option(spec, a));
  } else if (line.deck.empty()) {
    line.deck = a;
  } else {
    throw UsageError("more than one deck: '" + line.deck + "' and '" + a + "'");
  }
}

// ---- help ----

std::string cut(const std::string& s, std::size_t width) {
  if (s.size() <= width) return s;
  if (width < 4) return s.substr(0, width);
  return s.substr(0, width - 3) + "...";
}

// A list "a|b|c" cut after the names that fit, "a|b|...".
std::string cut_list(const std::string& s, std::size_t width) {
  if (s.size() <= width) return s;
  const auto comma = s.rfind('|', width > 4 ? width - 4 : 0);
  return comma == std::string::npos ? cut(s, width) : s.substr(0, comma) + "|...";
}

std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

std::string wrap(const std::string& text, std::size_t width, const std::string& indent) {
  std::istringstream in(text);
  std::string word, line, out;
  while (in >> word) {
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

}  // namespace

CommandLine parse_command_line(const AppSpec& spec, const std::vector<std::string>& args) {
  CommandLine line;
  std::vector<std::pair<std::string, std::string>> sets;  // (option, assignment)
  for (std::size_t i = 0; i < args.size(); ++i) {
    try {
      take(spec, args, i, line, sets);
    } catch (const UsageError& e) {
      if (line.fault.empty()) line.fault = e.what();
    }
  }
  if (!line.fault.empty()) return line;
  try {
    for (const auto& [option, assignment] : sets) {
      ParameterList scratch;
      const Override o = parse_override(assignment, option, *spec.valid, scratch);
      ParameterList* target = line.sets.get();
      for (const auto& s : o.sections) target = &target->sublist(s);
      target->setEntry(o.key, scratch.getEntry(o.key));
    }
  } catch (const UsageError& e) {
    line.fault = e.what();
  }
  return line;
}

void CommandLine::check() const {
  if (!fault.empty()) throw UsageError(fault);
}

std::string unknown_option(const AppSpec& spec, const std::string& arg) {
  std::vector<std::string> known{"--set",         "--print-deck",        "--list",
                                 "--help",        "--help-all",          "--version",
                                 "--kokkos-help", "--kokkos-num-threads"};
  for (const Shortcut& s : spec.shortcuts) known.push_back(s.long_flag);
  const std::string near = nearest(arg.substr(0, arg.find('=')), known);
  return "unknown option '" + arg + "'" + (near.empty() ? "" : "; did you mean " + near + "?") +
         " (see " + spec.name + " --help)";
}

Deck load_deck(const AppSpec& spec, const CommandLine& line, MPI_Comm comm) {
  line.check();
  return load_deck(spec.name, *spec.valid, line.deck, *line.sets, comm);
}

std::string help_text(const AppSpec& spec, std::size_t width) {
  std::ostringstream out;
  const std::string& n = spec.name;
  std::string example;  // the first key, at its default
  for_each_key(*spec.valid, "", [&](const std::string& key, const ParameterEntry& e) {
    if (example.empty()) example = "--set " + key + "=" + value_text(e);
  });
  out << wrap(n + ": " + spec.purpose, width, "") << "Usage: " << n
      << " [deck.yaml|deck.xml] [options]   (no deck: the defaults below)\n"
      << "  mpirun -np 4 --bind-to none " << n << " " << example << " --kokkos-num-threads=2\n"
      << "  srun -n 16 --cpus-per-task=8 " << n << " deck.yaml --kokkos-num-threads=8\n"
      << "Options:\n"
      << "  --set Section/key=value  set one parameter over the deck's (repeatable)\n";
  for (const Shortcut& s : spec.shortcuts)
    out << "  " << pad((s.short_flag.empty() ? "" : s.short_flag + ", ") + s.long_flag + " V", 23)
        << "  --set " << s.key << "=V\n";
  for (const AppSpec::Listing& l : spec.lists)
    out << "  " << pad("--list " + l.name, 23) << "  " << l.what << ", and exit\n";
  out << "  --print-deck[=xml|yaml]  check the deck, print it with every default, and exit\n"
      << "  --help [Section/key]     this text, or one parameter's whole text; --help-all: all\n"
      << "  --version                the versions of this driver, Kokkos, its tasks and MPI\n"
      << "  --kokkos-num-threads=N   Kokkos threads per rank (default: OMP_NUM_THREADS)\n"
      << "  --kokkos-help            Kokkos' own flags\n"
      << "Results: results/" << n << "-<date>-<time>.h5 here, or the file Output/file names\n"
      << "Parameters:\n";
  struct Row {
    std::string key, type, def, acc, doc;
  };
  std::vector<Row> rows;
  for_each_key(*spec.valid, "", [&](const std::string& key, const ParameterEntry& e) {
    std::string def = value_text(e);
    if (def.empty()) def = "\"\"";
    rows.push_back({key, type_word(e), def, accepted(e, true), e.docString()});
  });
  // The meaning gets what the other columns leave of the line.
  std::size_t wk = 11, wd = 7, wa = 8;
  for (const Row& r : rows) {
    wk = std::max(wk, r.key.size());
    wd = std::max(wd, std::min<std::size_t>(r.def.size(), 11));
    wa = std::max(wa, std::min<std::size_t>(r.acc.size(), 17));
  }
  out << "  " << pad("Section/key", wk) << "  " << pad("type", 6) << "  " << pad("default", wd)
      << "  " << pad("accepted", wa) << "  meaning\n";
  for (const Row& r : rows) {
    std::string line = "  " + pad(r.key, wk) + "  " + pad(r.type, 6) + "  " +
                       pad(cut(r.def, wd), wd) + "  " + pad(cut_list(r.acc, wa), wa) + "  ";
    std::string doc = r.doc.substr(0, r.doc.find(". "));
    line += cut(doc, line.size() < width ? width - line.size() : 0);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  return out.str();
}

std::string help_long(const AppSpec& spec, const std::string& topic) {
  std::ostringstream out;
  bool found = false;
  for_each_key(*spec.valid, "", [&](const std::string& key, const ParameterEntry& e) {
    if (!topic.empty() && key != topic && key.rfind(topic + "/", 0) != 0) return;
    found = true;
    const std::string acc = accepted(e, false);
    out << key << "  (" << type_word(e) << ", default " << value_text(e)
        << (acc.empty() ? "" : "; accepted: " + acc) << ")\n"
        << wrap(e.docString(), 100, "    ");
  });
  if (!found) {
    std::vector<std::string> keys;
    for_each_key(*spec.valid, "",
                 [&](const std::string& key, const ParameterEntry&) { keys.push_back(key); });
    for (const std::string& s : names_of(*spec.valid, true)) keys.push_back(s);
    const std::string near = nearest(topic, keys);
    throw UsageError(
        "--help " + topic + ": no such parameter" +
        (near.empty() ? "; " + spec.name + " --help lists them" : "; did you mean " + near + "?"));
  }
  return out.str();
}

}  // namespace ht
