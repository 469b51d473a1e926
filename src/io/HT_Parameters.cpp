#include "io/HT_Parameters.hpp"

#include <Teuchos_StandardParameterEntryValidators.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace ht {

using Teuchos::ParameterEntry;
using Teuchos::ParameterList;

namespace {

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

}  // namespace

std::string join_names(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::vector<std::string> names_of(const ParameterList& l, bool sections) {
  std::vector<std::string> v;
  for (auto it = l.begin(); it != l.end(); ++it)
    if (l.entry(it).isList() == sections) v.push_back(l.name(it));
  return v;
}

std::string type_word(const ParameterEntry& e) {
  if (e.isType<int>() || e.isType<long long>()) return "int";
  if (e.isType<double>()) return "double";
  if (e.isType<bool>()) return "bool";
  return "string";
}

// "1 to 42", "kronecker, uniform or grid", "true or false", "" when anything of the type.
std::string accepted(const ParameterEntry& e, bool compact) {
  double lo, hi;
  if (number_range<int>(e, lo, hi) || number_range<double>(e, lo, hi))
    return number_text(lo) + (compact ? ".." : " to ") + number_text(hi);
  if (e.isType<bool>()) return compact ? "true|false" : "true or false";
  const auto names = string_choices(e);
  if (names.empty()) return "";
  if (compact) return join_names(names, "|");
  std::vector<std::string> head(names.begin(), names.end() - 1);
  return names.size() == 1 ? names[0] : join_names(head, ", ") + " or " + names.back();
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

std::size_t edit_distance(const std::string& a, const std::string& b) {
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
        if (edit_distance(k, name) == 0)
          return prefix + name + ": " + what + "; did you mean " + s + "/" + k + "?";
  }
  const std::string section_name = prefix.substr(0, prefix.empty() ? 0 : prefix.size() - 1);
  if (here.empty()) here = names_of(valid, true);
  return prefix + name + ": " + what + "; " +
         (prefix.empty() ? std::string("the sections are ") : section_name + " has ") +
         join_names(here, ", ");
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

Teuchos::RCP<const Teuchos::ParameterEntryValidator> one_of(const std::vector<std::string>& names) {
  return Teuchos::rcp(new Teuchos::StringValidator(Teuchos::Array<std::string>(names)));
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) best_d = d, best = c;
  }
  // A typo: a letter or two off, and less than half the word.
  const std::size_t most = std::min<std::size_t>(2, std::max<std::size_t>(1, word.size() / 3));
  return best_d <= most && best_d < best.size() ? best : "";
}

}  // namespace ht
