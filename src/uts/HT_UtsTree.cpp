#include "uts/HT_UtsTree.hpp"

// OpenSSL 3 deprecates SHA1_Init/Update/Final in favour of EVP.  Measured on
// the 2-core VM (SHA-NI), one child state (24 bytes in): SHA1_* 57 ns, EVP
// with a reused context 97 ns, the one-shot SHA1() 289 ns (it fetches the
// algorithm per call).  A UTS node costs little more than its hashes, so the
// low-level calls stay; they are in every OpenSSL 3 release.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <cmath>
#include <sstream>

#include "runtime/HT_Error.hpp"

namespace ht {

namespace {

constexpr int kMaxChildren = 100;  // the reference's MAXNUMCHILDREN

void put_be32(std::uint8_t* b, std::uint32_t x) {
  b[0] = static_cast<std::uint8_t>(x >> 24);
  b[1] = static_cast<std::uint8_t>(x >> 16);
  b[2] = static_cast<std::uint8_t>(x >> 8);
  b[3] = static_cast<std::uint8_t>(x);
}

void sha1(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
  SHA_CTX c;
  SHA1_Init(&c);
  SHA1_Update(&c, in, n);
  SHA1_Final(out, &c);
}

// The node's own random number: the state's last 31 bits, on [0, 1).
double uniform(const UtsNode& n) {
  const std::uint32_t b = (std::uint32_t{n.state[16]} << 24) | (std::uint32_t{n.state[17]} << 16) |
                          (std::uint32_t{n.state[18]} << 8) | std::uint32_t{n.state[19]};
  return static_cast<double>(b & 0x7fffffffu) / 2147483648.0;
}

int binomial_children(const UtsTree& t, const UtsNode& n) { return uniform(n) < t.q ? t.m : 0; }

int geometric_children(const UtsTree& t, const UtsNode& n) {
  double b = t.b0;
  const int h = n.height;
  if (h > 0) {
    const double d = h, mx = t.depth;
    switch (t.shape) {
      case UtsTree::Shape::expdec:
        b = t.b0 * std::pow(d, -std::log(t.b0) / std::log(mx));
        break;
      case UtsTree::Shape::cyclic:
        b = h > 5 * t.depth ? 0.0 : std::pow(t.b0, std::sin(2.0 * 3.141592653589793 * d / mx));
        break;
      case UtsTree::Shape::fixed:
        b = h < t.depth ? t.b0 : 0;
        break;
      case UtsTree::Shape::linear:
        b = t.b0 * (1.0 - d / mx);
        break;
    }
  }
  // The inverse CDF of a geometric law of mean b (p = 1 / (1 + b)).
  const double p = 1.0 / (1.0 + b);
  return static_cast<int>(std::floor(std::log(1 - uniform(n)) / std::log(1 - p)));
}

bool geometric_at(const UtsTree& t, int height) {
  return t.type == UtsTree::Type::geometric ||
         (t.type == UtsTree::Type::hybrid && height < t.shift * t.depth);
}

}  // namespace

UtsNode UtsTree::root() const {
  std::uint8_t in[20] = {};
  put_be32(in + 16, static_cast<std::uint32_t>(seed));
  UtsNode r{};
  sha1(in, sizeof in, r.state.data());
  r.height = 0;
  return r;
}

int UtsTree::children(const UtsNode& n) const {
  if (n.height == 0 && type == Type::binomial) {
    // The binomial root: floor(b0), capped at ceil(b0) (so, never capped).
    return static_cast<int>(std::floor(b0));
  }
  const int c =
      geometric_at(*this, n.height) ? geometric_children(*this, n) : binomial_children(*this, n);
  return c > kMaxChildren ? kMaxChildren : c;
}

UtsNode UtsTree::child(const UtsNode& parent, int i) const {
  std::uint8_t in[24];
  for (int k = 0; k < 20; ++k) in[k] = parent.state[static_cast<std::size_t>(k)];
  put_be32(in + 20, static_cast<std::uint32_t>(i));
  UtsNode c;
  // -g: the reference repeats the same hash to make a node costlier.
  for (int g = 0; g < granularity; ++g) sha1(in, sizeof in, c.state.data());
  c.height = parent.height + 1;
  return c;
}

namespace {

std::string num(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

}  // namespace

void UtsTree::check(const std::string& section, bool known_finite) const {
  const std::string k = section + "/";
  if (!(b0 > 0))
    throw UsageError(k + "b0 = " + num(b0) + ": the root's branching factor must be > 0");
  if (granularity < 1)
    throw UsageError(k + "granularity = " + std::to_string(granularity) + ": must be >= 1");
  if (type != Type::binomial && depth < 1)
    throw UsageError(k + "depth = " + std::to_string(depth) + ": must be >= 1");
  if (type != Type::geometric) {
    if (!(q >= 0 && q <= 1)) throw UsageError(k + "q = " + num(q) + ": a probability, in [0, 1]");
    if (m < 0) throw UsageError(k + "m = " + std::to_string(m) + ": must be >= 0");
    if (q * m >= 1 && !known_finite)
      throw UsageError(k + "q = " + num(q) + ", " + k + "m = " + std::to_string(m) +
                       ": q * m = " + num(q * m) +
                       " >= 1 makes the binomial tree infinite (it grows forever with a "
                       "probability > 0); q * m < 1 is accepted");
  }
  if (type == Type::hybrid && !(shift >= 0 && shift <= 1))
    throw UsageError(k + "shift = " + num(shift) + ": a fraction of depth, in [0, 1]");
}

std::string UtsTree::describe() const {
  std::ostringstream s;
  s << type_name(type);
  if (type != Type::binomial) s << " (" << shape_name(shape) << "), d " << depth;
  s << ", b0 " << b0;
  if (type != Type::geometric) s << ", q " << q << ", m " << m;
  if (type == Type::hybrid) s << ", shift " << shift;
  s << ", r " << seed;
  if (granularity != 1) s << ", g " << granularity;
  return s.str();
}

namespace {

UtsTree geo(UtsTree::Shape a, int d, double b, int r) {
  UtsTree t;
  t.type = UtsTree::Type::geometric;
  t.shape = a;
  t.depth = d;
  t.b0 = b;
  t.seed = r;
  return t;
}

// -t binomial or hybrid: \p t's options, and -q and -m below the root (hybrid:
// below its geometric top).
UtsTree with_binomial(UtsTree::Type type, UtsTree t, double q, int m) {
  t.type = type;
  t.q = q;
  t.m = m;
  return t;
}

UtsTree bin(double b, double q, int m, int r) {
  const UtsTree defaults;
  return with_binomial(UtsTree::Type::binomial, geo(defaults.shape, defaults.depth, b, r), q, m);
}

UtsTree hyb(UtsTree::Shape a, int d, double b, double q, int m, int r) {
  return with_binomial(UtsTree::Type::hybrid, geo(a, d, b, r), q, m);
}

}  // namespace

const std::vector<UtsNamedTree>& uts_named_trees() {
  using S = UtsTree::Shape;
  // UTS 2.1 sample_trees.sh: the options and the published counts.
  static const std::vector<UtsNamedTree> trees = {
      {"T1", geo(S::fixed, 10, 4, 19), {4130071, 3305118, 10}},
      {"T5", geo(S::linear, 20, 4, 34), {4147582, 2181318, 20}},
      {"T2", geo(S::cyclic, 16, 6, 502), {4117769, 2342762, 81}},
      {"T3", bin(2000, 0.124875, 8, 42), {4112897, 3599034, 1572}},
      {"T4", hyb(S::linear, 16, 6, 0.234375, 4, 1), {4132453, 3108986, 134}},
      {"T1L", geo(S::fixed, 13, 4, 29), {102181082, 81746377, 13}},
      {"T2L", geo(S::cyclic, 23, 7, 220), {96793510, 53791152, 67}},
      {"T3L", bin(2000, 0.200014, 5, 7), {111345631, 89076904, 17844}},
  };
  return trees;
}

const UtsNamedTree& uts_named_tree(const std::string& name) {
  std::string names;
  for (const auto& t : uts_named_trees()) {
    if (t.name == name) return t;
    names += (names.empty() ? "" : ", ") + t.name;
  }
  throw UsageError("no sample tree called '" + name + "'; known: " + names);
}

}  // namespace ht
