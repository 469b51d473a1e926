#pragma once
/// \file HT_HugePages.hpp
/// \brief Transparent huge pages (2 MiB) for the large arrays a search reads
/// at random: a graph's offsets, targets and weights, a BFS's parents,
/// SSSP's distances.  A grid's wave front reads each of them a row 1,000+
/// vertices from the last, so with 4 KiB pages each row costs a TLB miss of
/// its own; one 2 MiB page maps 512 of them.
///
/// Where transparent huge pages are `madvise` (Debian's and RHEL's default,
/// /sys/kernel/mm/transparent_hugepage/enabled), a range gets them only when
/// asked.  prefer_huge_pages() asks for the whole huge pages inside a range
/// (MADV_HUGEPAGE: untouched pages get them at their first touch) and, where
/// the kernel can (MADV_COLLAPSE, Linux 6.1 and later), turns the pages
/// already there into huge ones at once.  Best effort: where the kernel
/// refuses, the range keeps its small pages.  `HT_HUGE_PAGES=0` in the
/// environment turns it off (to measure what it gains).
///
/// Example: src/graph/bfs/HT_Bfs.hpp (BfsResult::reset).
#include <cstddef>
#include <string>
#include <vector>

namespace ht {

/// \brief Whether prefer_huge_pages() asks for huge pages (HT_HUGE_PAGES, default on).
bool huge_pages_on();
/// \brief Reads HT_HUGE_PAGES (unset, `1`: on; `0`: off); a bad value sets
/// \p error to the message for the user (ht::Environment does, at start).
void read_huge_pages_setting(std::string& error);

/// \brief Asks for huge pages over the whole 2 MiB pages in [\p p, \p p +
/// \p bytes); returns the bytes asked for (0: too small, off, or refused).
std::size_t prefer_huge_pages(const void* p, std::size_t bytes);

/// \brief prefer_huge_pages() over \p v's elements.
template <class T>
std::size_t prefer_huge_pages(const std::vector<T>& v) {
  return prefer_huge_pages(v.data(), v.size() * sizeof(T));
}

/// \brief \p v.assign(\p n, \p x), new storage asked for in huge pages before
/// its first touch (a search's parents or distances: allocated once, reset
/// every search).
template <class T>
void assign_in_huge_pages(std::vector<T>& v, std::size_t n, const T& x) {
  if (v.capacity() < n) {
    std::vector<T>().swap(v);
    v.reserve(n);
    prefer_huge_pages(v.data(), n * sizeof(T));
  }
  v.assign(n, x);
}

}  // namespace ht
