#include "io/HT_Deck.hpp"

#include <Teuchos_StandardParameterEntryValidators.hpp>

#include <Teuchos_XMLParameterListCoreHelpers.hpp>
#include <Teuchos_YamlParameterListCoreHelpers.hpp>
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "ht_drivers.hpp"
#include "io/HT_Parameters.hpp"
#include "runtime/HT_Error.hpp"
#include "runtime/HT_MpiInt.hpp"

namespace ht {

namespace {

using Teuchos::ParameterEntry;
using Teuchos::ParameterList;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string to_xml(const ParameterList& p) {
  std::ostringstream out;
  Teuchos::writeParameterListToXmlOStream(p, out);
  return out.str();
}

std::string to_yaml(const ParameterList& p) {
  std::ostringstream out;
  // Doubles with a point ("15.0000"), as Teuchos's writer wants them.
  // Without it, Teuchos 13.2 warns on stdout that it will set the flag but
  // never does: doubles came out as integers ("alpha: 15").
  out.setf(std::ios::showpoint);
  Teuchos::writeParameterListToYamlOStream(p, out);
  return out.str();
}

// ---- what a key takes, in words ----

// "an integer", "a string": what a value read from a deck is, for a value
// of the wrong type, whose text alone may look right ("10" or 10.0 where an
// integer is asked).
std::string kind_of(const ParameterEntry& e) {
  if (e.isType<int>() || e.isType<long long>()) return "an integer";
  if (e.isType<double>() || e.isType<float>()) return "a real number";
  if (e.isType<bool>()) return "a boolean";
  if (e.isType<std::string>()) return "a string";
  return e.getAny(false).typeName().find("Array") != std::string::npos
             ? "a list"
             : "a value of type " + e.getAny(false).typeName();
}

// ---- where a fault is ----

// The deck file's line that defines \p key (its first), for "file:line:".
int line_of(const std::string& text, const std::string& key, bool yaml) {
  const std::string name = yaml ? key : "name=\"" + key + "\"";
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto at = line.find(name);
    if (at == std::string::npos) continue;
    const auto first = line.find_first_not_of(" \t-");
    if (!yaml) return n;
    const auto after = line.find_first_not_of(" \t", at + name.size());
    if (at == first && after != std::string::npos && line[after] == ':') return n;
  }
  return 0;
}

// Where a message about the deck points: "deck.yaml:4" or "deck 'deck.yaml'".
struct Source {
  std::string path;  // empty: an option
  std::string text;
  bool yaml = false;
  std::string option;  // "--set", "-s/--scale"

  std::string at(const std::string& key = "") const {
    if (!option.empty()) return option;
    const int line = key.empty() ? 0 : line_of(text, key, yaml);
    return line ? path + ":" + std::to_string(line) : "deck '" + path + "'";
  }
};

// The value of \p key as the deck writes it: YAML's text after "key:" (its
// quotes kept), else the value read, a string quoted and a real number with
// its point.
std::string written(const Source& src, const std::string& key, const ParameterEntry& got) {
  if (src.option.empty() && src.yaml) {
    const int n = line_of(src.text, key, true);
    std::istringstream in(src.text);
    std::string line;
    for (int i = 1; i <= n && std::getline(in, line); ++i) {
    }
    if (n > 0) {
      std::string v = line.substr(line.find(':', line.find(key) + key.size()) + 1);
      char quote = 0;  // a '#' after a blank and outside quotes starts a comment
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (quote) {
          if (v[i] == quote) quote = 0;
        } else if (v[i] == '"' || v[i] == '\'') {
          quote = v[i];
        } else if (v[i] == '#' && (i == 0 || v[i - 1] == ' ' || v[i - 1] == '\t')) {
          v.erase(i);
          break;
        }
      }
      const auto first = v.find_first_not_of(" \t"), last = v.find_last_not_of(" \t\r");
      if (first != std::string::npos) return v.substr(first, last - first + 1);
    }
  }
  if (got.isType<std::string>()) return "\"" + Teuchos::getValue<std::string>(got) + "\"";
  std::string text = value_text(got);
  if (got.isType<double>() && text.find_first_not_of("-0123456789") == std::string::npos)
    text += ".0";
  return text;
}

// A key's value as the type \p want declares, or a message why not.  YAML
// reads `alpha: 15` as an int and `target_bits: 32` as an int: both are
// what the user meant.
std::string coerce(ParameterList& list, const std::string& name, const ParameterEntry& want) {
  const ParameterEntry& got = list.getEntry(name);
  if (got.getAny(false).type() == want.getAny(false).type()) return "";
  if (want.isType<double>()) {
    if (got.isType<int>()) {
      list.set(name, static_cast<double>(Teuchos::getValue<int>(got)));
    } else if (got.isType<long long>()) {
      list.set(name, static_cast<double>(Teuchos::getValue<long long>(got)));
    } else {
      return "expected a number";
    }
    return "";
  }
  if (want.isType<int>()) {
    if (!got.isType<long long>()) return "expected an integer";
    const long long x = Teuchos::getValue<long long>(got);
    if (x < INT_MIN || x > INT_MAX) return "out of range";
    list.set(name, static_cast<int>(x));
    return "";
  }
  if (want.isType<bool>()) return "expected true or false";
  if (want.isType<std::string>() && (got.isType<int>() || got.isType<long long>() ||
                                     got.isType<double>() || got.isType<bool>())) {
    list.set(name, value_text(got));
    return "";
  }
  return "expected " + type_word(want);
}

std::string value_fault(const std::string& key, const std::string& shown,
                        const ParameterEntry& want, const std::string& why) {
  const std::string acc = accepted(want, false);
  return key + " = " + shown + ": " + why + "; accepted: " +
         (acc.empty() ? (want.isType<double>() ? "a number"
                         : want.isType<int>()  ? "an integer"
                                               : "a string")
                      : acc);
}

// Checks \p deck against \p valid (every entry: known, of its type or one
// that converts, accepted by the key's rule); the first fault as
// "where: message", or "".  \p skip: keys an option sets instead.
std::string check_entries(ParameterList& deck, const ParameterList& valid, const ParameterList& top,
                          const std::string& prefix, const Source& src,
                          const std::set<std::string>& skip) {
  for (const std::string& name : [&] {
         std::vector<std::string> all;
         for (auto it = deck.begin(); it != deck.end(); ++it) all.push_back(deck.name(it));
         return all;
       }()) {
    const ParameterEntry& got = deck.getEntry(name);
    const std::string key = prefix + name;
    if (!valid.isParameter(name))
      return src.at(name) + ": " + unknown_fault(prefix, name, valid, top, got.isList());
    const ParameterEntry& want = valid.getEntry(name);
    if (want.isList() != got.isList())
      return src.at(name) + ": " + key +
             (want.isList()
                  ? " is a section (of " + join_names(names_of(valid.sublist(name), false), ", ") +
                        "), not a value"
                  : " is a parameter, not a section");
    if (got.isList()) {
      const std::string fault =
          check_entries(deck.sublist(name), valid.sublist(name), top, key + "/", src, skip);
      if (!fault.empty()) return fault;
      continue;
    }
    if (skip.count(key)) continue;
    std::string why = coerce(deck, name, want);
    if (why.rfind("expected", 0) == 0)  // of the wrong type: what it was read as, too
      return src.at(name) + ": " +
             value_fault(key, written(src, name, got) + " (" + kind_of(got) + ")", want, why);
    if (why.empty()) why = check_value(deck.getEntry(name), want);
    if (!why.empty())
      return src.at(name) + ": " + value_fault(key, value_text(deck.getEntry(name)), want, why);
  }
  return "";
}

// Teuchos' parser messages carry "line N column M"; the rest is its grammar.
std::string syntax_fault(const std::string& path, const std::string& text, const std::string& what,
                         bool yaml) {
  std::smatch m;
  if (std::regex_search(what, m, std::regex("closing element '([^']*)' from line ([0-9]+)")))
    return path + ":" + m[2].str() + ": not valid XML: the element <" + m[1].str() +
           "> that starts here is never closed";
  int line = 0;
  std::string column;
  if (std::regex_search(what, m, std::regex("line ([0-9]+)( column ([0-9]+))?"))) {
    line = std::stoi(m[1]);
    if (m[3].matched) column = m[3].str();
  }
  std::string detail;
  const bool got_newline = std::regex_search(what, m, std::regex("Got: NEWLINE"));
  if (got_newline && line > 1) {
    // The parser sees the fault at the next line's start; it is at this one's end.
    --line;
    column.clear();
    detail = "the line ends inside a value (an unclosed [, { or quote?)";
  } else if (std::regex_search(what, m, std::regex("Lexer text: \"([^\"]*)\"")) &&
             m[1].str().find_first_not_of(" \t\r\n") != std::string::npos) {
    detail = "unexpected '" + m[1].str() + "'";
  } else if (std::regex_search(what, m, std::regex("[Ii]ndentation"))) {
    detail = "its indentation does not match the line above (tabs mixed with spaces?)";
  } else if (std::regex_search(what, m, std::regex("Could not tokenize"))) {
    detail = "a character YAML cannot read here";
  }
  std::string shown;
  if (line > 0) {
    std::istringstream in(text);
    for (int n = 1; n <= line && std::getline(in, shown); ++n) {
    }
    shown.erase(0, shown.find_first_not_of(" \t"));
  }
  const std::string where =
      path + (line > 0 ? ":" + std::to_string(line) + (column.empty() ? "" : ":" + column) : "");
  return where + ": not valid " + (yaml ? "YAML" : "XML") + (detail.empty() ? "" : ": " + detail) +
         (shown.empty() ? "" : " (in: " + shown + ")");
}

// \p text with its XML comments blanked, line breaks kept (for line numbers).
std::string without_xml_comments(std::string text) {
  for (auto at = text.find("<!--"); at != std::string::npos; at = text.find("<!--", at)) {
    const auto end = std::min(text.find("-->", at + 4), text.size() - 3) + 3;
    for (auto i = at; i < end; ++i)
      if (text[i] != '\n') text[i] = ' ';
  }
  return text;
}

// Whether the deck has nothing but blanks and comments (and an XML
// declaration): Teuchos' readers would call it "not valid".
bool is_empty_deck(const std::string& text, bool yaml) {
  if (yaml) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      const auto first = line.find_first_not_of(" \t\r");
      if (first != std::string::npos && line[first] != '#' && line.compare(first, 3, "---") != 0)
        return false;
    }
    return true;
  }
  std::string rest = without_xml_comments(text);
  const auto start = rest.find_first_not_of(" \t\r\n");
  if (start != std::string::npos && rest.compare(start, 5, "<?xml") == 0) {
    const auto end = rest.find("?>", start);
    if (end == std::string::npos) return false;
    rest.erase(0, end + 2);
  }
  return rest.find_first_not_of(" \t\r\n") == std::string::npos;
}

// The name of an XML deck's top-level list (Teuchos' reader drops it), or "".
std::string xml_top_name(const std::string& text) {
  std::smatch list, name;
  const std::string plain = without_xml_comments(text);
  if (!std::regex_search(plain, list, std::regex("<ParameterList\\b([^>]*)>"))) return "";
  const std::string attributes = list[1].str();
  return std::regex_search(attributes, name, std::regex("\\bname=\"([^\"]*)\"")) ? name[1].str()
                                                                                 : "";
}

// A key given twice in one list, as "deck.yaml:5: Graph500/SCALE: given
// twice (first at line 3); keep one", else "": Teuchos' YAML reader stops at
// the end of the list in words of its own, its XML reader keeps the last.
// Keys are named without the top-level (driver's) list.
std::string duplicate_fault(const Source& src) {
  struct Level {
    std::size_t indent;  // YAML: the keys' column
    std::string prefix;  // "Graph500/"
    std::map<std::string, int> lines;
    std::string last;  // YAML: the latest key, a section if deeper lines follow
  };
  std::vector<Level> open;
  const auto twice = [&](Level& level, const std::string& name, int line) {
    const auto [first, fresh] = level.lines.emplace(name, line);
    return fresh ? std::string()
                 : src.path + ":" + std::to_string(line) + ": " + level.prefix + name +
                       ": given twice (first at line " + std::to_string(first->second) +
                       "); keep one";
  };
  if (!src.yaml) {
    const std::string text = without_xml_comments(src.text);
    const std::regex tag("<(/?)(ParameterList|Parameter)\\b([^>]*)>"), name("\\bname=\"([^\"]*)\"");
    int line = 1;
    auto counted = text.cbegin();
    for (std::sregex_iterator it(text.begin(), text.end(), tag), end; it != end; ++it) {
      const std::smatch& m = *it;
      line += static_cast<int>(std::count(counted, m[0].first, '\n'));
      counted = m[0].first;
      const bool list = m[2] == "ParameterList";
      if (m[1] == "/") {
        if (list && !open.empty()) open.pop_back();
        continue;
      }
      std::smatch n;
      const std::string attributes = m[3].str();
      if (!std::regex_search(attributes, n, name)) continue;
      if (!open.empty()) {
        const std::string fault = twice(open.back(), n[1].str(), line);
        if (!fault.empty()) return fault;
      }
      if (list && attributes.back() != '/')
        open.push_back({0, open.empty() ? "" : open.back().prefix + n[1].str() + "/", {}, ""});
    }
    return "";
  }
  std::istringstream in(src.text);
  std::string line;
  std::size_t block = std::string::npos;  // a block scalar's key column: deeper lines are text
  for (int n = 1; std::getline(in, line); ++n) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    if (block != std::string::npos && first > block) continue;
    block = std::string::npos;
    if (line[first] == '-' || line[first] == '[' || line[first] == '{') continue;  // no key
    std::size_t colon;
    std::string key;
    if (line[first] == '"' || line[first] == '\'') {
      const auto close = line.find(line[first], first + 1);
      if (close == std::string::npos) continue;
      key = line.substr(first + 1, close - first - 1);
      colon = line.find_first_not_of(" \t", close + 1);
    } else {
      colon = line.find(':', first);
      while (colon != std::string::npos && colon + 1 < line.size() && line[colon + 1] != ' ' &&
             line[colon + 1] != '\t' && line[colon + 1] != '\r')
        colon = line.find(':', colon + 1);
      if (colon == std::string::npos) continue;
      key = line.substr(first, colon - first);
      key.erase(key.find_last_not_of(" \t") + 1);
    }
    if (colon == std::string::npos || line[colon] != ':' || key.find('#') != std::string::npos)
      continue;
    while (!open.empty() && open.back().indent > first) open.pop_back();
    if (open.empty() || open.back().indent < first)
      open.push_back(
          {first, open.size() < 2 ? "" : open.back().prefix + open.back().last + "/", {}, ""});
    const std::string fault = twice(open.back(), key, n);
    if (!fault.empty()) return fault;
    open.back().last = key;
    const auto value = line.find_first_not_of(" \t", colon + 1);
    if (value != std::string::npos && (line[value] == '|' || line[value] == '>')) block = first;
  }
  return "";
}

// Rank 0's half of load_deck: everything that can fail, so it fails once.
Deck read_and_validate(const std::string& app, const ParameterList& valid, const std::string& path,
                       const ParameterList& sets) {
  Deck deck;
  deck.path = path;
  Source src;
  if (deck.path.empty()) {
    deck.params = Teuchos::rcp(new ParameterList(app));  // the defaults
  } else {
    std::ifstream file(deck.path);
    if (!file || std::filesystem::is_directory(deck.path))
      throw UsageError("cannot read the deck '" + deck.path + "'");
    std::stringstream raw;
    raw << file.rdbuf();
    src.path = deck.path;
    src.text = raw.str();
    src.yaml = ends_with(deck.path, ".yaml") || ends_with(deck.path, ".yml");
    if (!src.yaml && !ends_with(deck.path, ".xml"))
      throw UsageError("deck '" + deck.path + "': unknown format; use .xml, .yaml or .yml");
    if (is_empty_deck(src.text, src.yaml))
      throw UsageError(
          deck.path + ": the deck is empty; it needs the driver's top-level list, e.g. " +
          (src.yaml ? "'" + app + ":' on its first line with the sections under it (" + app +
                          " --print-deck=yaml prints one with every default)"
                    : "<ParameterList name=\"" + app + "\"> with the sections in it (" + app +
                          " --print-deck prints one with every default)"));
    try {
      deck.params = src.yaml ? Teuchos::getParametersFromYamlString(src.text)
                             : Teuchos::getParametersFromXmlString(src.text);
    } catch (const std::exception& e) {
      const std::string twice = duplicate_fault(src);
      throw UsageError(!twice.empty() ? twice
                                      : syntax_fault(deck.path, src.text, e.what(), src.yaml));
    }
    const std::string twice = duplicate_fault(src);  // XML's reader keeps the last silently
    if (!twice.empty()) throw UsageError(twice);
    // The top-level name is the driver's: a deck of another driver says so.
    const std::string owner = src.yaml ? deck.params->name() : xml_top_name(src.text);
    if (owner != app && owner != "ANONYMOUS" && !owner.empty()) {
      if (valid.isSublist(owner))
        throw UsageError(src.at(owner) + ": the deck starts with the section " + owner +
                         "; its first line must name the driver (" + app + ":)");
      const auto& drivers = driver_names();
      if (std::find(drivers.begin(), drivers.end(), owner) == drivers.end()) {
        const std::string near = nearest(owner, drivers);
        std::vector<std::string> head(drivers.begin(), drivers.end() - 1);
        throw UsageError(src.at(owner) + ": " + owner + ": no such driver; " +
                         (near.empty() ? "the" : "did you mean " + near + "? The") +
                         " deck's top-level list names its driver: " + join_names(head, ", ") +
                         " or " + drivers.back());
      }
      throw UsageError("deck '" + deck.path + "' is for " + owner + ", not " + app +
                       " (its top-level list names the driver); run it with " + owner +
                       " (mpirun -np <ranks> " + owner + " " + deck.path + "), or see " + app +
                       " --help");
    }
  }

  // The options' keys are not held against the deck.
  std::set<std::string> skip;
  for_each_key(sets, "", [&](const std::string& key, const ParameterEntry&) { skip.insert(key); });
  const std::string fault = check_entries(*deck.params, valid, valid, "", src, skip);
  if (!fault.empty()) throw UsageError(fault);
  deck.params->setParameters(sets);
  try {
    deck.params->validateParametersAndSetDefaults(valid);
  } catch (const std::exception& e) {  // checked above; a rule of a kind not known here
    throw UsageError((deck.path.empty() ? "the options" : src.at()) + ": " + e.what());
  }
  deck.params->setName(app);

  // A results file the deck names is never replaced unasked.
  const auto& out = deck.params->sublist("Output");
  if (out.isParameter("file") && out.isParameter("overwrite")) {
    const std::string file = out.get<std::string>("file");
    if (!file.empty() && std::filesystem::exists(file) && !out.get<bool>("overwrite"))
      throw UsageError("Output/file = " + file +
                       ": the file exists; name another, leave Output/file empty for a new name "
                       "in results/, or set Output/overwrite: true to replace it");
  }
  deck.text = to_xml(*deck.params);
  return deck;
}

void broadcast(std::string& s, MPI_Comm comm) {
  unsigned long long n = s.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  s.resize(n);
  MPI_Bcast(s.data(), mpi_int(n, "the deck's bytes"), MPI_CHAR, 0, comm);
}

}  // namespace

std::string deck_text(const ParameterList& params, const std::string& format) {
  return format == "yaml" ? to_yaml(params) : to_xml(params);
}

const std::vector<std::string>& driver_names() {
  static const std::vector<std::string> names{HT_DRIVER_NAMES};  // apps/*.cpp
  return names;
}

Deck load_deck(const std::string& app, const ParameterList& valid, const std::string& path,
               const ParameterList& sets, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Deck deck;
  std::string error;
  if (rank == 0) {
    try {
      deck = read_and_validate(app, valid, path, sets);
    } catch (const UsageError& e) {
      error = e.what();
    }
  }
  broadcast(error, comm);
  if (!error.empty()) throw UsageError(error);

  broadcast(deck.path, comm);
  broadcast(deck.text, comm);
  if (rank != 0) deck.params = Teuchos::getParametersFromXmlString(deck.text);
  return deck;
}

}  // namespace ht
