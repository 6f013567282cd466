// Board mode for a session's kernels and tasks (pto_runtime_set_board_mode):
// libpto's board mode is per thread, so the runtime sets it, with a warning
// handler of its own, on the threads it owns (the workers, and a thread for
// the verifications a board-mode session makes), never on the caller's.
#include <stdio.h>

#include <exception>
#include <string>
#include <thread>

#include "runtime.h"

namespace pto_host {

namespace {

// libpto calls a handler one report at a time across threads.
void CountWarning(const char *message, void *user) {
    pto_runtime *rt = static_cast<pto_runtime *>(user);
    rt->warnings.fetch_add(1, std::memory_order_relaxed);
    if (rt->warning != nullptr) rt->warning(message, rt->warning_user);
    else fprintf(stderr, "libpto warning: %s\n", message);
}

}  // namespace

void EnterBoardMode(pto_runtime *rt) {
    pto_set_board_mode(1);
    pto_set_warning_handler(CountWarning, rt);
}

pto_status InSessionMode(pto_runtime *rt, const std::function<pto_status()> &fn) {
    if (!rt->board) return fn();
    const pto_profile profile = pto_get_profile();
    pto_status status = PTO_OK;
    std::string message;
    try {
        std::thread helper([&] {
            pto_set_profile(profile);
            EnterBoardMode(rt);
            status = fn();
            if (status != PTO_OK) message = pto_runtime_last_error();
        });
        helper.join();
    } catch (const std::exception &e) {
        return Fail(PTO_ERR_OUT_OF_MEMORY, "a thread for board mode cannot be started (%s)", e.what());
    }
    return status == PTO_OK ? PTO_OK : Fail(status, "%s", message.c_str());
}

}  // namespace pto_host

extern "C" {

PTO_API pto_status pto_runtime_set_board_mode(pto_runtime *rt, int on) {
    if (rt == nullptr) return pto_host::Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_set_board_mode: NULL argument");
    if (on != 0 && on != 1)
        return pto_host::Fail(PTO_ERR_INVALID_ARGUMENT, "pto_runtime_set_board_mode: %d is not 0 (off) or 1 (on)", on);
    if (rt->prepared)
        return pto_host::Fail(PTO_ERR_INVALID_ARGUMENT,
                              "pto_runtime_set_board_mode: the session is prepared already (its kernels verified)");
    rt->board = on == 1;
    return PTO_OK;
}

PTO_API pto_status pto_runtime_set_warning_handler(pto_runtime *rt, pto_warning_fn handler, void *user) {
    if (rt == nullptr) return pto_host::Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_set_warning_handler: NULL argument");
    rt->warning = handler;
    rt->warning_user = handler != nullptr ? user : nullptr;
    return PTO_OK;
}

PTO_API pto_status pto_runtime_board_warnings(const pto_runtime *rt, uint64_t *count) {
    if (rt == nullptr || count == nullptr)
        return pto_host::Fail(PTO_ERR_NULL_ARGUMENT, "pto_runtime_board_warnings: NULL argument");
    *count = rt->warnings.load(std::memory_order_relaxed);
    return PTO_OK;
}

}  // extern "C"
