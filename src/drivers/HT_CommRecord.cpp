#include "drivers/HT_CommRecord.hpp"

namespace ht {

namespace {

struct Field {
  const char* name;
  long long CommCounts::*count;
  const char* units;
};
constexpr Field kFields[] = {{"messages", &CommCounts::messages, "1"},
                             {"bytes", &CommCounts::bytes, "bytes"},
                             {"collectives", &CommCounts::collectives, "1"},
                             {"collective_bytes", &CommCounts::collective_bytes, "bytes"},
                             {"barriers", &CommCounts::barriers, "1"}};

void write_counts(Results& r, const std::string& path, const std::vector<CommCounts>& counts) {
  for (const Field& f : kFields) {
    std::vector<long long> row;
    row.reserve(counts.size());
    for (const CommCounts& c : counts) row.push_back(c.*f.count);
    r.per_rank_row(path + "/" + f.name, row, f.units);
  }
}

}  // namespace

void CommRecord::write(Results& r, const std::string& group) const {
  write_counts(r, group + "/kernel", kernel_);
  write_counts(r, group + "/verify", verify_);
  if (step_.empty()) return;
  write_counts(r, group + "/step", step_);
  r.global(group + "/step_trial", step_trial_, "1");
}

}  // namespace ht
