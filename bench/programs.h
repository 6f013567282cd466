// pto-bench's program rows: what an instruction costs inside a verified PTO
// assembly program (against an empty call and the direct C call), and a
// kernel over global memory on 1, 2, ... blocks.
#ifndef PTO_BENCH_PROGRAMS_H_
#define PTO_BENCH_PROGRAMS_H_

#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "timing.h"

namespace bench {

// pto-bench pins itself to one CPU, and threads inherit that: rows that run
// blocks hold one of these, which gives the process every online CPU and
// restores the pin when it goes.
class AllCpus {
 public:
  AllCpus() {
    sched_getaffinity(0, sizeof pinned_, &pinned_);
    cpu_set_t all;
    CPU_ZERO(&all);
    for (long c = 0; c < cpus_ && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &all);
    sched_setaffinity(0, sizeof all, &all);
  }
  ~AllCpus() { sched_setaffinity(0, sizeof pinned_, &pinned_); }
  long count() const { return cpus_; }

 private:
  cpu_set_t pinned_;
  const long cpus_ = sysconf(_SC_NPROCESSORS_ONLN);
};

// Prints both tables; examples_dir holds prelu-4096.pto.
void RunProgramRows(FILE* out, const TimingConfig& timing, const char* examples_dir);

// Prints only the launch rows (an empty kernel, small tiles on 1 and 2 blocks).
void RunLaunchRows(FILE* out, const TimingConfig& timing);

}  // namespace bench

#endif  // PTO_BENCH_PROGRAMS_H_
