// Compiling the orchestration: the system C++ compiler against this
// library's copy of pto_orchestration_api.h, the shared object kept in a
// cache directory under the hash of everything that makes it, then loaded.
// "Everything" is the header, the source, its path, the compiler's words
// and flags, and every other file the source includes outside the system
// directories: the compiler lists those (-MMD), the cache keeps them with
// their hashes beside the library, and a library is reused only while each
// still hashes the same.
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


#include "runtime.h"

namespace pto_host {

namespace {

const char *const kFlags[] = {"-std=gnu++17", "-O1", "-fPIC", "-shared", "-fvisibility=hidden",
                              "-Wl,--no-undefined"};

// FNV-1a, 64 bits: the cache key (not a security boundary: the cache
// directory is the user's own).
uint64_t Hash(uint64_t h, const std::string &s) {
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    h ^= 0xff;  // separates consecutive strings
    return h * 0x100000001b3ull;
}

std::string Hex(uint64_t v) {
    char buf[17];
    snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// (access and opendir rather than stat: stat's symbol is newer than the
// glibc the Python wheel targets.)
bool Exists(const std::string &path) { return access(path.c_str(), F_OK) == 0; }

// mkdir -p.
bool MakeDirs(const std::string &dir) {
    for (size_t at = 1; at <= dir.size(); at++) {
        if (at != dir.size() && dir[at] != '/') continue;
        const std::string part = dir.substr(0, at);
        if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return false;
    }
    DIR *d = opendir(dir.c_str());
    if (d != nullptr) closedir(d);
    return d != nullptr;
}

// Writes text to path through a temporary file renamed into place, so
// concurrent sessions never see half a file.
bool WriteAtomically(const std::string &path, const std::string &text) {
    const std::string tmp = path + ".tmp." + std::to_string(getpid());
    return WriteFile(tmp, text) && rename(tmp.c_str(), path.c_str()) == 0;
}

// The prerequisites of a make rule written by -MMD -MF: the words after
// the first ':' ("\\" + newline continues a line, "\\ " is a space in a
// name).
std::vector<std::string> DependencyList(const std::string &rule) {
    std::vector<std::string> files;
    const size_t colon = rule.find(": ");
    if (colon == std::string::npos) return files;
    std::string word;
    for (size_t i = colon + 1; i < rule.size(); i++) {
        const char c = rule[i];
        if (c == '\\' && i + 1 < rule.size() && (rule[i + 1] == '\n' || rule[i + 1] == ' ')) {
            if (rule[i + 1] == ' ') word += ' ';
            i++;
            if (rule[i] == ' ') continue;
        } else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
            word += c;
            continue;
        }
        if (!word.empty()) files.push_back(word);
        word.clear();
    }
    if (!word.empty()) files.push_back(word);
    return files;
}

// A file's hash as the dependency record keeps it; "-" where it cannot be read.
std::string FileHash(const std::string &dir, const std::string &file) {
    std::string text;
    if (!ReadFile(!file.empty() && file[0] == '/' ? file : dir + "/" + file, &text)) return "-";
    return Hex(Hash(0xcbf29ce484222325ull, text));
}

// The record beside a library: a line "HASH FILE" per dependency.
std::string DependencyRecord(const std::string &dir, const std::vector<std::string> &files) {
    std::string record;
    for (const std::string &f : files) record += FileHash(dir, f) + " " + f + "\n";
    return record;
}

// True while every file of the record still hashes as recorded.
bool DependenciesUnchanged(const std::string &dir, const std::string &record_path) {
    std::string record;
    if (!ReadFile(record_path, &record)) return false;
    for (const std::string &line : Lines(record)) {
        if (line.empty()) continue;
        const size_t space = line.find(' ');
        if (space == std::string::npos || line.substr(0, space) != FileHash(dir, line.substr(space + 1)))
            return false;
    }
    return true;
}

std::string DefaultCacheDir() {
    if (const char *d = getenv("PTO_RUNTIME_CACHE"); d != nullptr && *d != '\0') return d;
    if (const char *d = getenv("XDG_CACHE_HOME"); d != nullptr && *d == '/') return std::string(d) + "/pto-runtime";
    if (const char *d = getenv("HOME"); d != nullptr && *d == '/') return std::string(d) + "/.cache/pto-runtime";
    return "/tmp/pto-runtime-" + std::to_string(getuid());
}

std::vector<std::string> Compiler() {
    const char *cxx = getenv("CXX");
    std::vector<std::string> words = Words(cxx != nullptr ? cxx : "");
    if (words.empty()) words.push_back("c++");
    return words;
}

// Runs argv in dir with stdout and stderr into log; the exit status, or -1
// if it could not start (errno's sentence in *error).
int RunIn(const std::string &dir, const std::vector<std::string> &argv, const std::string &log, std::string *error) {
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = Format("%s: %s", log.c_str(), strerror(errno));
        return -1;
    }
    const pid_t pid = fork();
    if (pid == 0) {
        // The child: only async-signal-safe calls until exec.
        if (chdir(dir.c_str()) != 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(126);
        execvp(args[0], args.data());
        _exit(127);
    }
    const int saved = errno;
    close(fd);
    if (pid < 0) {
        *error = Format("fork: %s", strerror(saved));
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            *error = Format("waitpid: %s", strerror(errno));
            return -1;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        *error = Format("the C++ compiler '%s' could not be run (set CXX)", argv[0].c_str());
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The compiler's first error (or, failing that, its last line).
std::string FirstError(const std::string &log) {
    std::string last;
    for (const std::string &line : Lines(log)) {
        if (line.find(" error: ") != std::string::npos || line.find("undefined reference") != std::string::npos)
            return line;
        if (!line.empty()) last = line;
    }
    return last.empty() ? "no message" : last;
}

}  // namespace

pto_status CompileOrchestration(pto_runtime *rt) {
    const std::string &rel = rt->orchestration_path;
    const std::string source = !rel.empty() && rel[0] == '/' ? rel : rt->work_dir + "/" + rel;
    std::string text;
    if (!ReadFile(source, &text))
        return Fail(PTO_ERR_INVALID_ARGUMENT, "the orchestration %s cannot be read", source.c_str());
    std::string cache = rt->cache_dir.empty() ? DefaultCacheDir() : rt->cache_dir;
    if (!MakeDirs(cache))
        return Fail(PTO_ERR_INVALID_ARGUMENT, "the cache directory %s cannot be made: %s", cache.c_str(),
                    strerror(errno));

    const std::string header = kOrchestrationHeader;
    const std::string include = cache + "/include-" + Hex(Hash(0xcbf29ce484222325ull, header));
    if (!Exists(include + "/pto_orchestration_api.h")) {
        if (!MakeDirs(include) || !WriteAtomically(include + "/pto_orchestration_api.h", header))
            return Fail(PTO_ERR_INVALID_ARGUMENT, "%s/pto_orchestration_api.h cannot be written", include.c_str());
    }

    std::vector<std::string> argv = Compiler();
    for (const char *f : kFlags) argv.push_back(f);
    argv.push_back("-I" + include);
    uint64_t key = Hash(Hash(Hash(0xcbf29ce484222325ull, header), text), rt->work_dir + "\n" + rel);
    for (const std::string &a : argv) key = Hash(key, a);
    const std::string library = cache + "/orch-" + Hex(key) + ".so";

    const std::string record = library + ".deps";
    if (!Exists(library) || !DependenciesUnchanged(rt->work_dir, record)) {
        const std::string tmp = library + ".tmp." + std::to_string(getpid());
        argv.push_back("-MMD");
        argv.push_back("-MF");
        argv.push_back(tmp + ".d");
        argv.push_back("-o");
        argv.push_back(tmp);
        argv.push_back(rel);
        const std::string log_path = tmp + ".log";
        std::string error;
        const int status = RunIn(rt->work_dir, argv, log_path, &error);
        std::string log;
        ReadFile(log_path, &log);
        unlink(log_path.c_str());
        std::string rule;
        ReadFile(tmp + ".d", &rule);
        unlink((tmp + ".d").c_str());
        if (status != 0) {
            unlink(tmp.c_str());
            if (status < 0) return Fail(PTO_ERR_INVALID_ARGUMENT, "compiling %s: %s", rel.c_str(), error.c_str());
            return Fail(PTO_ERR_INVALID_ARGUMENT, "compiling %s: %s", rel.c_str(), FirstError(log).c_str());
        }
        // The record first: a library is never taken without one.
        if (!WriteAtomically(record, DependencyRecord(rt->work_dir, DependencyList(rule))) ||
            rename(tmp.c_str(), library.c_str()) != 0)
            return Fail(PTO_ERR_INVALID_ARGUMENT, "%s cannot be written: %s", library.c_str(), strerror(errno));
    }

    void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) return Fail(PTO_ERR_INVALID_ARGUMENT, "loading %s: %s", library.c_str(), dlerror());
    Orchestration o;
    o.handle = handle;
    o.library = library;
    o.bind = reinterpret_cast<int (*)(const PtoOrchOps *, void *)>(dlsym(handle, "pto_orch_bind"));
    o.entry = reinterpret_cast<void (*)(const ChipTaskArgs &)>(dlsym(handle, "aicpu_orchestration_entry"));
    o.config = reinterpret_cast<PTO2OrchestrationConfig (*)(const ChipTaskArgs &)>(
        dlsym(handle, "aicpu_orchestration_config"));
    if (o.bind == nullptr || o.entry == nullptr) {
        dlclose(handle);
        return Fail(PTO_ERR_INVALID_ARGUMENT, "%s defines no %s (an orchestration defines aicpu_orchestration_entry "
                    "and includes pto_orchestration_api.h)",
                    rel.c_str(), o.entry == nullptr ? "aicpu_orchestration_entry" : "pto_orch_bind");
    }
    if (rt->orchestration.handle != nullptr) dlclose(rt->orchestration.handle);
    rt->orchestration = o;
    return PTO_OK;
}

}  // namespace pto_host
