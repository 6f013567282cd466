// The launch pool (pool.h). Threads that find no work poll for a new job for
// a bounded while before they sleep on a condition variable, as OpenMP
// runtimes do: back-to-back launches then find them awake, while an idle
// process stops using the CPU kPoll after its last launch. Polling yields the
// CPU between polls, so a poller does not hold up the thread it waits for
// when both share a CPU (a process pinned to one CPU, a loaded machine).
#include "program/run/pool.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <new>
#include <thread>

namespace pto {
namespace program {
namespace {

// How long a thread polls before it sleeps: a pool thread for the next job,
// a caller for the pool threads still in its job.
constexpr std::chrono::microseconds kPoll{50};
// Polls that only pause the core before polls start yielding the CPU.
constexpr unsigned kPauses = 64;

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

// Polls until done() or kPoll has passed; returns done().
template <class Done>
bool Poll(Done done) {
  const auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0;; ++i) {
    if (done()) return true;
    if (i < kPauses) {
      CpuRelax();
    } else {
      std::this_thread::yield();
      if (std::chrono::steady_clock::now() - start > kPoll) return done();
    }
  }
}

// One RunShared call, on its caller's stack.
struct Job {
  void (*run)(void*);
  void* arg;
  unsigned wanted;                   // pool threads still wanted
  std::atomic<unsigned> running{0};  // pool threads inside run (changed under the pool's mutex)
  std::condition_variable done;      // the caller waits here for running == 0
  Job* next = nullptr;               // in the pool's list while it wants threads
};

class Pool {
 public:
  void Run(unsigned helpers, void (*run)(void*), void* arg);

  Pool* abandoned_before = nullptr;  // see ForgetPoolInChild

 private:
  void Grow(unsigned helpers);
  Job* Take();
  void Remove(Job* job);
  void Serve();
  static void* ServeThread(void* pool) {
    static_cast<Pool*>(pool)->Serve();
    return nullptr;
  }

  std::mutex mutex_;
  std::condition_variable work_;  // sleeping pool threads wait here for posted_ to change
  // Guarded by mutex_: jobs that still want pool threads, oldest first.
  Job* jobs_ = nullptr;
  unsigned sleeping_ = 0;
  // Threads started, never joined (the pool is never destroyed). Plain
  // pthreads: none of their state is on the heap, where a child process
  // after fork would hold it for a thread it does not have.
  unsigned threads_ = 0;
  // Jobs posted so far (changed under mutex_): what polling threads watch.
  std::atomic<unsigned long> posted_{0};
};

// Starts pool threads until there are `helpers` (under mutex_). A thread that
// cannot be started leaves the work to the others.
void Pool::Grow(unsigned helpers) {
  while (threads_ < helpers) {
    pthread_t thread;
    if (pthread_create(&thread, nullptr, &Pool::ServeThread, this) != 0) return;
    ++threads_;
  }
}

// The oldest job that still wants a pool thread, joined (under mutex_).
Job* Pool::Take() {
  Job* job = jobs_;
  if (job == nullptr) return nullptr;
  job->running.fetch_add(1, std::memory_order_relaxed);
  if (--job->wanted == 0) jobs_ = job->next;
  return job;
}

// Takes job out of the list if it is there (under mutex_).
void Pool::Remove(Job* job) {
  for (Job** link = &jobs_; *link != nullptr; link = &(*link)->next) {
    if (*link == job) {
      *link = job->next;
      return;
    }
  }
}

void Pool::Serve() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (Job* job = Take()) {
      lock.unlock();
      job->run(job->arg);
      lock.lock();
      // Last touch of job: under the mutex, which its caller takes before it
      // returns.
      if (job->running.fetch_sub(1, std::memory_order_relaxed) == 1) job->done.notify_one();
      continue;
    }
    const unsigned long seen = posted_.load(std::memory_order_relaxed);
    lock.unlock();
    Poll([&] { return posted_.load(std::memory_order_relaxed) != seen; });
    lock.lock();
    if (posted_.load(std::memory_order_relaxed) == seen) {
      ++sleeping_;
      work_.wait(lock, [&] { return posted_.load(std::memory_order_relaxed) != seen; });
      --sleeping_;
    }
  }
}

void Pool::Run(unsigned helpers, void (*run)(void*), void* arg) {
  Job job;
  job.run = run;
  job.arg = arg;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Grow(helpers);
    if (helpers > threads_) helpers = threads_;
    job.wanted = helpers;
    if (helpers != 0) {
      Job** tail = &jobs_;
      while (*tail != nullptr) tail = &(*tail)->next;
      *tail = &job;
      posted_.fetch_add(1, std::memory_order_relaxed);
      for (unsigned i = 0; i < helpers && i < sleeping_; ++i) work_.notify_one();
    }
  }
  run(arg);
  if (helpers == 0) return;
  std::unique_lock<std::mutex> lock(mutex_);
  Remove(&job);  // no pool thread joins from here on
  if (job.running.load(std::memory_order_relaxed) == 0) return;
  lock.unlock();
  Poll([&] { return job.running.load(std::memory_order_relaxed) == 0; });
  // Even when the poll saw 0: the last pool thread may still be notifying.
  lock.lock();
  job.done.wait(lock, [&] { return job.running.load(std::memory_order_relaxed) == 0; });
}

std::atomic<Pool*> g_pool{nullptr};
// Pools of ancestor processes, kept reachable (never used: their threads did
// not survive fork, and their mutex may have been held by one of them).
Pool* g_abandoned = nullptr;

// pthread_atfork's child handler: the next launch starts a new pool.
void ForgetPoolInChild() {
  Pool* pool = g_pool.load(std::memory_order_relaxed);
  if (pool == nullptr) return;
  pool->abandoned_before = g_abandoned;
  g_abandoned = pool;
  g_pool.store(nullptr, std::memory_order_relaxed);
}

// Registered when the library is loaded, before any pool can exist.
[[maybe_unused]] const int g_atfork_registered = pthread_atfork(nullptr, nullptr, ForgetPoolInChild);

Pool* ThePool() {
  Pool* pool = g_pool.load(std::memory_order_acquire);
  if (pool != nullptr) return pool;
  Pool* fresh = new (std::nothrow) Pool;
  if (fresh == nullptr) return nullptr;
  if (g_pool.compare_exchange_strong(pool, fresh, std::memory_order_acq_rel)) return fresh;
  delete fresh;  // another thread's pool won; no thread was started in this one
  return pool;
}

}  // namespace

void RunShared(unsigned helpers, void (*run)(void*), void* arg) {
  Pool* pool = helpers != 0 ? ThePool() : nullptr;
  if (pool == nullptr) {
    run(arg);
    return;
  }
  pool->Run(helpers, run, arg);
}

}  // namespace program
}  // namespace pto
