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

#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

using Teuchos::ParameterEntry;
using Teuchos::ParameterList;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
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

std::vector<std::string> names_of(const ParameterList& l, bool sections) {
  std::vector<std::string> v;
  for (auto it = l.begin(); it != l.end(); ++it)
    if (l.entry(it).isList() == sections) v.push_back(l.name(it));
  return v;
}

// ---- what a key takes, in words ----

std::string type_word(const ParameterEntry& e) {
  if (e.isType<int>() || e.isType<long long>()) return "int";
  if (e.isType<double>()) return "double";
  if (e.isType<bool>()) return "bool";
  return "string";
}

std::string number_text(double x) {
  if (x == std::floor(x) && std::fabs(x) >= 1024) {
    const double l = std::log2(std::fabs(x));
    if (l == std::floor(l)) return std::string(x < 0 ? "-" : "") + "2^" + std::to_string(int(l));
  }
  std::ostringstream s;
  s << x;
  std::string t = s.str();  // 1e+09 -> 1e9
  for (const char* from : {"e+0", "e+", "e-0"}) {
    const auto at = t.find(from);
    if (at != std::string::npos)
      t.replace(at, std::string(from).size(), from[1] == '-' ? "e-" : "e");
  }
  return t;
}

template <class T>
bool number_range(const ParameterEntry& e, double& lo, double& hi) {
  auto v = Teuchos::rcp_dynamic_cast<const Teuchos::EnhancedNumberValidator<T>>(e.validator());
  if (v.is_null()) return false;
  lo = static_cast<double>(v->getMin());
  hi = static_cast<double>(v->getMax());
  return true;
}

std::vector<std::string> string_choices(const ParameterEntry& e) {
  std::vector<std::string> names;
  if (e.validator().is_null()) return names;
  auto valid = e.validator()->validStringValues();
  if (!valid.is_null()) names.assign(valid->begin(), valid->end());
  return names;
}

// "1 to 42", "mpi, locking or hybrid", "true or false", "" when anything of the type.
std::string accepted(const ParameterEntry& e, bool compact) {
  double lo, hi;
  if (number_range<int>(e, lo, hi) || number_range<double>(e, lo, hi))
    return number_text(lo) + (compact ? ".." : " to ") + number_text(hi);
  if (e.isType<bool>()) return compact ? "true|false" : "true or false";
  const auto names = string_choices(e);
  if (names.empty()) return "";
  if (compact) return join(names, "|");
  std::vector<std::string> head(names.begin(), names.end() - 1);
  return names.size() == 1 ? names[0] : join(head, ", ") + " or " + names.back();
}

std::string value_text(const ParameterEntry& e) {
  if (e.isType<bool>()) return Teuchos::getValue<bool>(e) ? "true" : "false";
  if (e.isType<double>()) {
    std::ostringstream s;
    s << Teuchos::getValue<double>(e);
    return s.str();
  }
  return Teuchos::toString(e.getAny(false));
}

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

// ---- typos ----

std::size_t distance(const std::string& a, const std::string& b) {
  // Optimal string alignment: insert, delete, substitute, swap neighbours.
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  auto low = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = low(a[i - 1]) == low(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && low(a[i - 1]) == low(b[j - 2]) && low(a[i - 2]) == low(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
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

// Whether the entry's value is one \p want accepts: "" or why not.
std::string check_value(const ParameterEntry& got, const ParameterEntry& want) {
  double lo, hi;
  if (number_range<int>(want, lo, hi) || number_range<double>(want, lo, hi)) {
    const double x =
        got.isType<int>() ? Teuchos::getValue<int>(got) : Teuchos::getValue<double>(got);
    if (!(x >= lo && x <= hi)) return "out of range";
    return "";
  }
  const auto names = string_choices(want);
  if (!names.empty()) {
    const std::string& v = Teuchos::getValue<std::string>(got);
    if (std::find(names.begin(), names.end(), v) != names.end()) return "";
    const std::string near = nearest(v, names);
    return near.empty() ? "not accepted" : "not accepted (did you mean " + near + "?)";
  }
  if (!want.validator().is_null()) {  // a validator of another kind: its verdict, our words
    try {
      want.validator()->validate(got, "", "");
    } catch (const std::exception&) {
      return "not accepted";
    }
  }
  return "";
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

// "Graph500/SCAEL: no such parameter; did you mean SCALE?" for a key that
// \p valid lacks.
std::string unknown_fault(const std::string& prefix, const std::string& name,
                          const ParameterList& valid, const ParameterList& top, bool section) {
  const std::string what = section ? "no such section" : "no such parameter";
  std::vector<std::string> here = names_of(valid, section);
  std::string near = nearest(name, here);
  if (!near.empty()) return prefix + name + ": " + what + "; did you mean " + near + "?";
  if (!section) {  // a key of another section, or a section's key at the top
    for (const std::string& s : names_of(top, true))
      for (const std::string& k : names_of(top.sublist(s), false))
        if (distance(k, name) == 0)
          return prefix + name + ": " + what + "; did you mean " + s + "/" + k + "?";
  }
  const std::string section_name = prefix.substr(0, prefix.empty() ? 0 : prefix.size() - 1);
  if (here.empty()) here = names_of(valid, true);
  return prefix + name + ": " + what + "; " +
         (prefix.empty() ? std::string("the sections are ") : section_name + " has ") +
         join(here, ", ");
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
                  ? " is a section (of " + join(names_of(valid.sublist(name), false), ", ") +
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
Deck read_and_validate(const AppSpec& spec, const std::vector<std::string>& args) {
  Deck deck;
  std::vector<std::pair<std::string, std::string>> sets;  // (option, assignment)
  std::string print_format;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const Shortcut* cut = nullptr;
    std::string value;
    for (const Shortcut& s : spec.shortcuts) {
      if (a == s.long_flag || (!s.short_flag.empty() && a == s.short_flag)) {
        if (i + 1 == args.size()) throw UsageError(a + " needs a value (" + s.key + ")");
        cut = &s;
        value = args[++i];
      } else if (a.rfind(s.long_flag + "=", 0) == 0) {
        cut = &s;
        value = a.substr(s.long_flag.size() + 1);
      } else if (!s.short_flag.empty() && a.size() > s.short_flag.size() &&
                 a.rfind(s.short_flag, 0) == 0 && a[1] != '-') {
        cut = &s;
        value = a.substr(s.short_flag.size());
      }
      if (cut) break;
    }
    if (cut) {
      sets.emplace_back((cut->short_flag.empty() ? "" : cut->short_flag + "/") + cut->long_flag,
                        cut->key + "=" + value);
    } else if (a == "--set") {
      if (i + 1 == args.size()) throw UsageError("--set needs Section/key=value");
      sets.emplace_back("--set", args[++i]);
    } else if (a.rfind("--set=", 0) == 0) {
      sets.emplace_back("--set", a.substr(6));
    } else if (a == "--print-deck" || a == "--print-deck=xml") {
      print_format = "xml";
    } else if (a == "--print-deck=yaml") {
      print_format = "yaml";
    } else if (a.rfind("--print-deck=", 0) == 0) {
      throw UsageError(a + ": unknown format '" + a.substr(13) + "'; accepted: xml, yaml");
    } else if (!a.empty() && a[0] == '-') {
      std::vector<std::string> known{
          "--set",         "--print-deck",        "--help", "--help-all", "--version",
          "--kokkos-help", "--kokkos-num-threads"};
      for (const Shortcut& s : spec.shortcuts) known.push_back(s.long_flag);
      const std::string near = nearest(a.substr(0, a.find('=')), known);
      throw UsageError("unknown option '" + a + "'" +
                       (near.empty() ? "" : "; did you mean " + near + "?") + " (see " + spec.name +
                       " --help)");
    } else if (deck.path.empty()) {
      deck.path = a;
    } else {
      throw UsageError("more than one deck: '" + deck.path + "' and '" + a + "'");
    }
  }

  Source src;
  if (deck.path.empty()) {
    deck.params = Teuchos::rcp(new ParameterList(spec.name));  // the defaults
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
          (src.yaml ? "'" + spec.name + ":' on its first line with the sections under it (" +
                          spec.name + " --print-deck=yaml prints one with every default)"
                    : "<ParameterList name=\"" + spec.name + "\"> with the sections in it (" +
                          spec.name + " --print-deck prints one with every default)"));
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
    if (owner != spec.name && owner != "ANONYMOUS" && !owner.empty()) {
      if (spec.valid->isSublist(owner))
        throw UsageError(src.at(owner) + ": the deck starts with the section " + owner +
                         "; its first line must name the driver (" + spec.name + ":)");
      const auto& drivers = driver_names();
      if (std::find(drivers.begin(), drivers.end(), owner) == drivers.end()) {
        const std::string near = nearest(owner, drivers);
        std::vector<std::string> head(drivers.begin(), drivers.end() - 1);
        throw UsageError(src.at(owner) + ": " + owner + ": no such driver; " +
                         (near.empty() ? "the" : "did you mean " + near + "? The") +
                         " deck's top-level list names its driver: " + join(head, ", ") + " or " +
                         drivers.back());
      }
      throw UsageError("deck '" + deck.path + "' is for " + owner + ", not " + spec.name +
                       " (its top-level list names the driver); run it with " + owner +
                       " (mpirun -np <ranks> " + owner + " " + deck.path + "), or see " +
                       spec.name + " --help");
    }
  }

  // The options first, so that a key they set is not held against the deck.
  ParameterList overrides;
  std::vector<Override> parsed;
  std::set<std::string> skip;
  for (const auto& [option, assignment] : sets) {
    ParameterList scratch;
    parsed.push_back(parse_override(assignment, option, *spec.valid, scratch));
    Override& o = parsed.back();
    ParameterList* target = &overrides;
    for (const auto& s : o.sections) target = &target->sublist(s);
    target->setEntry(o.key, scratch.getEntry(o.key));
    skip.insert(o.path);
  }
  const std::string fault = check_entries(*deck.params, *spec.valid, *spec.valid, "", src, skip);
  if (!fault.empty()) throw UsageError(fault);
  deck.params->setParameters(overrides);
  try {
    deck.params->validateParametersAndSetDefaults(*spec.valid);
  } catch (const std::exception& e) {  // checked above; a rule of a kind not known here
    throw UsageError((deck.path.empty() ? "the options" : src.at()) + ": " + e.what());
  }
  deck.params->setName(spec.name);

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
  if (!print_format.empty()) {
    deck.print_only = true;
    deck.printed = print_format == "yaml" ? to_yaml(*deck.params) : deck.text;
  }
  return deck;
}

void broadcast(std::string& s, MPI_Comm comm) {
  unsigned long long n = s.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  s.resize(n);
  MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
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

// Visits every parameter as ("Section/key", entry).
void for_each_key(const ParameterList& l, const std::string& prefix,
                  const std::function<void(const std::string&, const ParameterEntry&)>& f) {
  for (auto it = l.begin(); it != l.end(); ++it) {
    const ParameterEntry& e = l.entry(it);
    if (e.isList())
      for_each_key(l.sublist(l.name(it)), prefix + l.name(it) + "/", f);
    else
      f(prefix + l.name(it), e);
  }
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

Teuchos::RCP<const Teuchos::ParameterEntryValidator> one_of(const std::vector<std::string>& names) {
  return Teuchos::rcp(new Teuchos::StringValidator(Teuchos::Array<std::string>(names)));
}

const std::vector<std::string>& driver_names() {
  static const std::vector<std::string> names{"cannon_gemm", "graph500_bfs", "uts"};
  return names;
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const std::string& c : candidates) {
    const std::size_t d = distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  // A typo: a letter or two off, and less than half the word.
  const std::size_t most = std::min<std::size_t>(2, std::max<std::size_t>(1, word.size() / 3));
  return best_d <= most && best_d < best.size() ? best : "";
}

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
  broadcast(deck.path, comm);
  broadcast(deck.text, comm);
  if (rank != 0) deck.params = Teuchos::getParametersFromXmlString(deck.text);
  return deck;
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

std::string default_deck(const AppSpec& spec, const std::string& format) {
  ParameterList p(spec.name);
  p.validateParametersAndSetDefaults(*spec.valid);
  return format == "yaml" ? to_yaml(p) : to_xml(p);
}

}  // namespace ht
