// smoke_reference: plain, single-threaded textbook codes that the CI smoke
// (perf/smoke/smoke.py) divides HybridTasks' timings by.  None of them shares
// code with the library, so a slowdown planted in one of the library's paths
// moves the smoke's ratio and not its reference.
//   smoke_reference read <file>             one pass of strtoll/strtod over an edge list
//   smoke_reference graph <file> <keys>     the same read, a CSR by counting sort,
//                                           <keys> BFS and (weighted files) Dijkstra searches
//   smoke_reference sha1 <count>            SHA-1 of <count> chained 24-byte messages
//                                           (a UTS child's state and index), by the
//                                           low-level calls UTS uses
// Prints "<what>: <value>" lines (seconds; for searches, the median search's
// edges a second, as graph500_bfs's median_TEPS).
// Edge lists: "u v" or "u v w" a line, vertex ids from 0; '%' and '#' lines
// are comments (the formats graph500_bfs reads as .el and .wel).
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>
#include <vector>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct EdgeList {
  std::vector<std::int64_t> u, v;
  std::vector<float> w;
  std::int64_t vertices = 0;
};

std::string slurp(const char* path) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) {
    std::perror(path);
    std::exit(1);
  }
  std::string text;
  char buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  return text;
}

// Line by line with the C library's own number readers.
EdgeList parse(const std::string& text) {
  EdgeList g;
  const char* p = text.c_str();
  const char* const end = p + text.size();
  while (p < end) {
    const char* eol = static_cast<const char*>(std::memchr(p, '\n', end - p));
    if (!eol) eol = end;
    if (*p != '%' && *p != '#' && *p != '\n') {
      char* q = nullptr;
      const std::int64_t a = std::strtoll(p, &q, 10), b = std::strtoll(q, &q, 10);
      char* r = nullptr;
      const double w = std::strtod(q, &r);
      g.u.push_back(a);
      g.v.push_back(b);
      if (r != q && r <= eol) g.w.push_back(static_cast<float>(w));
      g.vertices = std::max({g.vertices, a + 1, b + 1});
    }
    p = eol + 1;
  }
  if (!g.w.empty() && g.w.size() != g.u.size()) {
    std::fprintf(stderr, "smoke_reference: some lines have weights, some not\n");
    std::exit(1);
  }
  return g;
}

struct Csr {
  std::vector<std::int64_t> offsets, targets;
  std::vector<float> weights;
};

// Both directions of each edge, self-loops dropped, by counting sort.
Csr build(const EdgeList& e) {
  Csr g;
  g.offsets.assign(static_cast<std::size_t>(e.vertices) + 1, 0);
  for (std::size_t i = 0; i < e.u.size(); ++i)
    if (e.u[i] != e.v[i]) ++g.offsets[e.u[i] + 1], ++g.offsets[e.v[i] + 1];
  for (std::size_t i = 1; i < g.offsets.size(); ++i) g.offsets[i] += g.offsets[i - 1];
  std::vector<std::int64_t> at(g.offsets.begin(), g.offsets.end() - 1);
  g.targets.resize(static_cast<std::size_t>(g.offsets.back()));
  if (!e.w.empty()) g.weights.resize(g.targets.size());
  for (std::size_t i = 0; i < e.u.size(); ++i) {
    if (e.u[i] == e.v[i]) continue;
    const std::int64_t a = at[e.u[i]]++, b = at[e.v[i]]++;
    g.targets[a] = e.v[i];
    g.targets[b] = e.u[i];
    if (!e.w.empty()) g.weights[a] = g.weights[b] = e.w[i];
  }
  return g;
}

// Keys with an edge, spread by a fixed linear congruential walk.
std::vector<std::int64_t> keys(const Csr& g, int count) {
  std::vector<std::int64_t> out;
  const auto n = static_cast<std::uint64_t>(g.offsets.size() - 1);
  std::uint64_t x = 12345;
  for (std::uint64_t tries = 0; out.size() < static_cast<std::size_t>(count) && tries < 64 * n;
       ++tries) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto k = static_cast<std::int64_t>((x >> 17) % n);
    if (g.offsets[k + 1] > g.offsets[k]) out.push_back(k);
  }
  return out;
}

// Edges scanned from the reached vertices (each undirected edge twice), / 2.
double bfs(const Csr& g, std::int64_t key) {
  std::vector<std::int64_t> parent(g.offsets.size() - 1, -1), queue{key};
  parent[key] = key;
  std::int64_t scanned = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::int64_t u = queue[head];
    scanned += g.offsets[u + 1] - g.offsets[u];
    for (std::int64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i)
      if (parent[g.targets[i]] < 0) parent[g.targets[i]] = u, queue.push_back(g.targets[i]);
  }
  return scanned / 2.0;
}

double dijkstra(const Csr& g, std::int64_t key) {
  std::vector<float> dist(g.offsets.size() - 1, std::numeric_limits<float>::infinity());
  using Item = std::pair<float, std::int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  dist[key] = 0;
  heap.push({0.0f, key});
  std::int64_t scanned = 0;
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[u]) continue;
    scanned += g.offsets[u + 1] - g.offsets[u];
    for (std::int64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i)
      if (d + g.weights[i] < dist[g.targets[i]])
        dist[g.targets[i]] = d + g.weights[i], heap.push({dist[g.targets[i]], g.targets[i]});
  }
  return scanned / 2.0;
}

// The median over the searches from \p ks of each one's edges a second.
double rate(const Csr& g, const std::vector<std::int64_t>& ks,
            double (*search)(const Csr&, std::int64_t)) {
  std::vector<double> rates;
  for (const std::int64_t k : ks) {
    const double t0 = now(), edges = search(g, k);
    rates.push_back(edges / (now() - t0));
  }
  std::sort(rates.begin(), rates.end());
  return rates.empty() ? 0.0 : rates[rates.size() / 2];
}

int usage() {
  std::fprintf(stderr, "usage: smoke_reference read <file> | graph <file> <keys> | sha1 <count>\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string what = argv[1];
  if (what == "sha1") {
    const long count = std::atol(argv[2]);
    unsigned char in[24] = {1}, md[SHA_DIGEST_LENGTH];
    const double t0 = now();
    for (long i = 0; i < count; ++i) {
      SHA_CTX c;
      SHA1_Init(&c);
      SHA1_Update(&c, in, sizeof in);
      SHA1_Final(md, &c);
      std::memcpy(in, md, sizeof md);
    }
    std::printf("sha1_seconds: %.6f\nsha1_check: %d\n", now() - t0, md[0]);
    return 0;
  }
  if (what != "read" && !(what == "graph" && argc == 4)) return usage();
  const std::string text = slurp(argv[2]);
  double t0 = now();
  const EdgeList e = parse(text);
  std::printf("read_seconds: %.6f\nedges: %zu\n", now() - t0, e.u.size());
  if (what == "read") return 0;
  t0 = now();
  const Csr g = build(e);
  std::printf("build_seconds: %.6f\n", now() - t0);
  const std::vector<std::int64_t> ks = keys(g, std::atoi(argv[3]));
  std::printf("bfs_teps: %.6g\n", rate(g, ks, bfs));
  if (!g.weights.empty()) std::printf("sssp_teps: %.6g\n", rate(g, ks, dijkstra));
  return 0;
}
