// Run-time compilation (lib/runtime_kernels.hpp): NVRTC found or refused
// with a clear line, cubins for sm_90 made without a GPU, the disk cache's
// hits, misses, damage and concurrent fills; and, on a GPU, a kernel built,
// launched and memoised. Every test points the cache at a folder of its own.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_resources.hpp"
#include "gpu.hpp"
#include "nvrtc_library.hpp"
#include "runtime_kernel_sources.hpp"
#include "runtime_kernels.hpp"
#include "temp_dir.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

constexpr int kArch = 90;  // NVRTC compiles for it with no GPU present

// Sets (or, given nothing, unsets) an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

bool is_elf(const std::vector<char>& bytes) { return bytes.size() > 4 && std::string(bytes.data(), 4) == "\x7f" "ELF"; }

std::vector<char> file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The names in a folder, sorted.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

Cubin sample_cubin() {
  return cached_cubin(test::sample_kernel_source(), test::sample_headers(), kArch);
}

// A test with its own, empty cache: $XDG_CACHE_HOME is a fresh folder.
class KernelCache : public ::testing::Test {
 protected:
  TempDir home_;
  ScopedEnv xdg_{"XDG_CACHE_HOME", home_.file("cache")};
  fs::path folder() const { return home_ / "cache" / "gpuimg"; }
  fs::path entry(const Cubin& cubin) const { return folder() / (cubin.hash + ".cubin"); }
};

TEST(Nvrtc, MissingLibraryIsOneLineNamingItAndTheWayOut) {
  TempDir dir;
  const std::string missing = dir.file("libnvrtc-missing.so");
  ScopedEnv env("GPUIMG_NVRTC", missing);
  try {
    NvrtcLibrary library("--map");
    FAIL() << "loaded " << missing;
  } catch (const DeviceError& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_EQ(std::string(e.what()), "--map needs NVRTC (" + missing + ", from GPUIMG_NVRTC), which could not be loaded: " +
                                         missing + ": cannot open shared object file: No such file or directory; " +
                                         "run with --device cpu");
  }
}

TEST(Nvrtc, FileThatIsNoLibraryIsRefusedWithTheLoadersReason) {
  TempDir dir;
  const std::string fake = dir.file("libnvrtc.so.13");
  write_bytes(fake, {'n', 'o', 't', ' ', 'E', 'L', 'F'});
  ScopedEnv env("GPUIMG_NVRTC", fake);
  try {
    NvrtcLibrary library("--map");
    FAIL() << "loaded " << fake;
  } catch (const DeviceError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("--map needs NVRTC (" + fake + ", from GPUIMG_NVRTC), which could not be loaded: " + fake, 0), 0u)
        << what;
    EXPECT_NE(what.find("; run with --device cpu"), std::string::npos) << what;
  }
}

// A real shared library that is not NVRTC: the first function missing is named.
TEST(Nvrtc, LibraryWithoutNvrtcsFunctionsNamesTheMissingOne) {
  ScopedEnv env("GPUIMG_NVRTC", std::string("libz.so.1"));
  try {
    NvrtcLibrary library("--map");
    FAIL() << "libz.so.1 taken for NVRTC";
  } catch (const DeviceError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("--map needs NVRTC (libz.so.1, from GPUIMG_NVRTC), which could not be loaded: ", 0), 0u)
        << what;
    EXPECT_NE(what.find("undefined symbol: nvrtcVersion"), std::string::npos) << what;
  }
}

TEST(Nvrtc, FoundWithoutTheVariable) {
  ScopedEnv env("GPUIMG_NVRTC", std::nullopt);
  const NvrtcLibrary library("--map");
  EXPECT_EQ(library.version().rfind(std::to_string(CUDART_VERSION / 1000) + ".", 0), 0u) << library.version();
}

TEST(Nvrtc, LoadedOnceForTheProcess) {
  const NvrtcLibrary& loaded = nvrtc("--map");
  EXPECT_EQ(&nvrtc("--map"), &loaded);
}

TEST(RuntimeCompile, MakesACubinForSm90WithoutAGpu) {
  const std::vector<std::string> options = compile_options(kArch);
  EXPECT_EQ(options, (std::vector<std::string>{"-arch=sm_90", "-std=c++17", "--fmad=false"}));
  const std::vector<char> cubin = compile_cubin(test::sample_kernel_source(), test::sample_headers(), options);
  EXPECT_TRUE(is_elf(cubin));
}

TEST(RuntimeCompile, ErrorCarriesTheLogOnOneLine) {
  const std::string source = "extern \"C\" __global__ void broken(int* out) { out[0] = undefined_name; }\n";
  try {
    compile_cubin(source, {}, compile_options(kArch));
    FAIL() << "compiled";
  } catch (const KernelCompileError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_EQ(what.rfind("NVRTC ", 0), 0u) << what;
    EXPECT_NE(what.find("could not compile the CUDA source gpuimg generated (NVRTC_ERROR_COMPILATION; a bug in gpuimg, "
                        "please report it): runtime_kernel.cu(1): error: identifier \"undefined_name\" is undefined"),
              std::string::npos)
        << what;
    EXPECT_NE(e.log().find("identifier \"undefined_name\" is undefined"), std::string::npos) << e.log();
  }
}

TEST_F(KernelCache, SecondCallReadsWhatTheFirstCompiled) {
  const Cubin first = sample_cubin();
  EXPECT_FALSE(first.cached);
  EXPECT_TRUE(is_elf(first.bytes));
  EXPECT_EQ(first.hash.size(), 16u);
  EXPECT_EQ(names_in(folder()), std::vector<std::string>{first.hash + ".cubin"});
  EXPECT_EQ(fs::status(folder()).permissions(), fs::perms::owner_all);

  const Cubin second = sample_cubin();
  EXPECT_TRUE(second.cached);
  EXPECT_EQ(second.hash, first.hash);
  EXPECT_EQ(second.bytes, first.bytes);
}

TEST_F(KernelCache, EveryPartOfTheKeyMakesItsOwnEntry) {
  const Cubin plain = sample_cubin();
  const Cubin other_arch = cached_cubin(test::sample_kernel_source(), test::sample_headers(), 100);
  const Cubin other_option =
      cached_cubin(test::sample_kernel_source(), test::sample_headers(), kArch, {"-DUNUSED=1"});
  SourceHeaders headers = test::sample_headers();
  headers[0].second += "\n// a change\n";
  const Cubin other_header = cached_cubin(test::sample_kernel_source(), headers, kArch);
  const Cubin other_source = cached_cubin(test::sample_kernel_source() + "\n", test::sample_headers(), kArch);
  for (const Cubin* c : {&other_arch, &other_option, &other_header, &other_source}) {
    EXPECT_FALSE(c->cached);
    EXPECT_NE(c->hash, plain.hash);
  }
  EXPECT_EQ(names_in(folder()).size(), 5u);
}

// Each damage makes the entry a miss: compiled again, the same cubin, and
// the entry written over so that the next run finds it.
TEST_F(KernelCache, DamagedEntryIsRebuilt) {
  const Cubin good = sample_cubin();
  const std::vector<char> whole = file_bytes(entry(good));
  const std::vector<char> other_key = [&] {
    const Cubin other = cached_cubin("extern \"C\" __global__ void other() {}\n", {}, kArch);
    return file_bytes(entry(other));
  }();
  struct Damage {
    const char* what;
    std::vector<char> bytes;
  };
  std::vector<Damage> damages = {
      {"empty", {}},
      {"cut to its header", std::vector<char>(whole.begin(), whole.begin() + 36)},
      {"cut by one byte", std::vector<char>(whole.begin(), whole.end() - 1)},
      {"one byte longer", whole},
      {"a cubin byte flipped", whole},
      {"a key byte flipped", whole},
      {"garbage", std::vector<char>(whole.size(), 'x')},
      {"another key's entry", other_key},
  };
  damages[3].bytes.push_back(0);
  damages[4].bytes[whole.size() - 100] ^= 0x20;
  damages[5].bytes[40] ^= 0x01;
  for (const Damage& d : damages) {
    SCOPED_TRACE(d.what);
    write_bytes(entry(good), d.bytes);
    const Cubin rebuilt = sample_cubin();
    EXPECT_FALSE(rebuilt.cached);
    EXPECT_EQ(rebuilt.bytes, good.bytes);
    EXPECT_EQ(file_bytes(entry(good)), whole);
    EXPECT_TRUE(sample_cubin().cached);
  }
}

TEST(KernelCacheFolder, FollowsXdgCacheHomeThenHome) {
  TempDir dir;
  {
    ScopedEnv xdg("XDG_CACHE_HOME", dir.file("xdg"));
    ScopedEnv home("HOME", dir.file("home"));
    const Cubin c = sample_cubin();
    EXPECT_TRUE(fs::exists(dir / "xdg" / "gpuimg" / (c.hash + ".cubin")));
    // Only the cache's folder: NVRTC may keep files of its own under HOME.
    EXPECT_FALSE(fs::exists(dir / "home" / ".cache" / "gpuimg"));
  }
  // The XDG spec: an empty or relative XDG_CACHE_HOME is ignored.
  for (const char* ignored : {"", "relative/cache"}) {
    SCOPED_TRACE(ignored);
    ScopedEnv xdg("XDG_CACHE_HOME", std::string(ignored));
    ScopedEnv home("HOME", dir.file("home"));
    const Cubin c = sample_cubin();
    EXPECT_TRUE(fs::exists(dir / "home" / ".cache" / "gpuimg" / (c.hash + ".cubin")));
    EXPECT_EQ(fs::status(dir / "home" / ".cache").permissions(), fs::perms::owner_all);
  }
}

// The cache never fails a run: where it cannot be used, every call compiles.
TEST(KernelCacheFolder, UnusableFolderStillCompiles) {
  TempDir dir;
  write_bytes(dir / "a-file", {'x'});
  fs::create_directories(dir / "shared" / "gpuimg");
  // Another user could write there: a planted cubin would be their code.
  fs::permissions(dir / "shared" / "gpuimg", fs::perms::group_write, fs::perm_options::add);
  // A link where the cache's folder should be, to a folder of the user's.
  fs::create_directories(dir / "elsewhere");
  fs::create_directories(dir / "linked");
  fs::create_directory_symlink(dir / "elsewhere", dir / "linked" / "gpuimg");
  struct Case {
    const char* what;
    std::optional<std::string> xdg, home;
  };
  const std::vector<Case> cases = {
      {"under a file", dir.file("a-file") + "/cache", std::nullopt},
      {"writable by the group", dir.file("shared"), std::nullopt},
      {"a link in its place", dir.file("linked"), std::nullopt},
      {"neither variable set", std::nullopt, std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    ScopedEnv xdg("XDG_CACHE_HOME", c.xdg);
    ScopedEnv home("HOME", c.home);
    for (int run = 0; run < 2; ++run) {
      const Cubin cubin = sample_cubin();
      EXPECT_FALSE(cubin.cached);
      EXPECT_TRUE(is_elf(cubin.bytes));
    }
  }
  EXPECT_TRUE(fs::is_empty(dir / "shared" / "gpuimg"));
  EXPECT_TRUE(fs::is_empty(dir / "elsewhere"));
}

TEST_F(KernelCache, ThreadsFillingOneEntryAtOnceEachGetTheCubin) {
  const std::vector<char> expected =
      compile_cubin(test::sample_kernel_source(), test::sample_headers(), compile_options(kArch));
  constexpr int kThreads = 6;
  std::atomic<int> ready{0};
  std::vector<Cubin> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ++ready;
      while (ready < kThreads) std::this_thread::yield();
      got[t] = sample_cubin();
    });
  for (std::thread& t : threads) t.join();
  for (const Cubin& c : got) EXPECT_EQ(c.bytes, expected);
  // One whole entry, no temporary left.
  EXPECT_EQ(names_in(folder()), std::vector<std::string>{got[0].hash + ".cubin"});
  EXPECT_TRUE(sample_cubin().cached);
}

TEST_F(KernelCache, ProcessesFillingOneEntryAtOnceEachGetTheCubin) {
  const std::string source = test::sample_kernel_source();
  // The helper takes no headers: the source is made whole here.
  const std::string whole_source = test::sample_header_text() + source.substr(source.find('\n') + 1);
  write_bytes(home_ / "kernel.cu", std::vector<char>(whole_source.begin(), whole_source.end()));
  const std::vector<char> expected = compile_cubin(whole_source, {}, compile_options(kArch));
  constexpr int kProcesses = 6;
  // Every argument made before fork: the child of a threaded process may
  // call nothing that allocates before exec.
  const std::string kernel = home_.file("kernel.cu"), arch = std::to_string(kArch), go = home_.file("go");
  std::vector<std::string> outs;
  for (int p = 0; p < kProcesses; ++p) outs.push_back(home_.file("cubin" + std::to_string(p)));
  std::vector<pid_t> children;
  for (const std::string& out : outs) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::execl(GPUIMG_CUBIN_FILL, GPUIMG_CUBIN_FILL, kernel.c_str(), arch.c_str(), go.c_str(), out.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    children.push_back(pid);
  }
  write_bytes(home_ / "go", {});
  for (const pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  }
  for (const std::string& out : outs) EXPECT_EQ(file_bytes(out), expected) << out;
  const Cubin stored = cached_cubin(whole_source, {}, kArch);
  EXPECT_TRUE(stored.cached);
  EXPECT_EQ(names_in(folder()), std::vector<std::string>{stored.hash + ".cubin"});
}

class GpuRuntimeKernel : public KernelCache {};

TEST_F(GpuRuntimeKernel, IsBuiltLaunchedAndMemoised) {
  GPUIMG_REQUIRE_GPU();
  const RuntimeKernel first = runtime_kernel(test::sample_kernel_source(), test::sample_headers(), "count_up");
  ASSERT_NE(first.function, nullptr);
  EXPECT_FALSE(first.cached);
  EXPECT_EQ(names_in(folder()), std::vector<std::string>{first.hash + ".cubin"});

  constexpr int n = 1000;
  DeviceBuffer out(n * sizeof(int), "the kernel's output");
  int* out_ptr = static_cast<int*>(out.get());
  int count = n;
  void* args[] = {&out_ptr, &count};
  check_cuda(cudaLaunchKernel(first.function, dim3((n + 255) / 256), dim3(256), args, 0, nullptr), "launching count_up");
  std::vector<int> host(n);
  check_cuda(cudaMemcpy(host.data(), out_ptr, n * sizeof(int), cudaMemcpyDeviceToHost), "copying the output back");
  for (int i = 0; i < n; ++i) ASSERT_EQ(host[i], i * 3 + 1) << i;

  const RuntimeKernel again = runtime_kernel(test::sample_kernel_source(), test::sample_headers(), "count_up");
  EXPECT_EQ(again.function, first.function);
  EXPECT_EQ(again.hash, first.hash);
  const RuntimeKernel other = runtime_kernel(test::sample_kernel_source(), test::sample_headers(), "fill_samples");
  EXPECT_NE(other.function, first.function);
  EXPECT_EQ(other.hash, first.hash);  // one source, one entry
  EXPECT_TRUE(other.cached);
}

TEST_F(GpuRuntimeKernel, UnknownNameIsADeviceErrorNamingIt) {
  GPUIMG_REQUIRE_GPU();
  try {
    runtime_kernel(test::sample_kernel_source(), test::sample_headers(), "no_such_kernel");
    FAIL() << "found";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("finding kernel no_such_kernel"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpuimg
