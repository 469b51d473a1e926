#include "drivers/HT_CommRecord.hpp"

namespace ht {

namespace {

struct Field {
  const char* name;
  long long CommCounts::*count;
};
constexpr Field kFields[] = {{"messages", &CommCounts::messages},
                             {"bytes", &CommCounts::bytes},
                             {"collectives", &CommCounts::collectives},
                             {"collective_bytes", &CommCounts::collective_bytes},
                             {"barriers", &CommCounts::barriers}};

void write_counts(Results& r, const std::string& path, const std::vector<CommCounts>& counts) {
  for (const Field& f : kFields) {
    std::vector<double> row;
    row.reserve(counts.size());
    for (const CommCounts& c : counts) row.push_back(static_cast<double>(c.*f.count));
    r.per_rank(path + "/" + f.name, row);
  }
}

}  // namespace

void CommRecord::write(Results& r, const std::string& group) const {
  write_counts(r, group + "/kernel", kernel_);
  write_counts(r, group + "/verify", verify_);
  if (step_.empty()) return;
  write_counts(r, group + "/step", step_);
  r.global(group + "/step_trial", step_trial_);
}

}  // namespace ht
