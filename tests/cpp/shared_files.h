// Access to ../shared (conformance suites, corpus). Absent on a fresh clone elsewhere:
// tests that need it are then skipped (WASMJSON_SKIP_WITHOUT_SHARED; ctest and
// scripts/test.sh count them as skipped, not passed). With ../shared present, they check
// how many files a folder holds (the k...Files counts), so a folder that is lost or cut
// short fails them instead of passing with fewer cases.
#pragma once
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace wasmjson::testing_support {

inline std::filesystem::path shared_dir() { return WASMJSON_SHARED_DIR; }

inline bool have_shared() { return std::filesystem::is_directory(shared_dir()); }

#define WASMJSON_SKIP_WITHOUT_SHARED() \
  if (!::wasmjson::testing_support::have_shared()) GTEST_SKIP() << "../shared not present"

inline constexpr size_t kJsonTestSuiteParsingFiles = 318;  // conformance/JSONTestSuite-parsing
inline constexpr size_t kJcsVectorFiles = 6;               // conformance/jcs/input
inline constexpr size_t kCorpusFiles = 25;                 // corpus

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Files in a folder of ../shared, sorted by name.
inline std::vector<std::filesystem::path> shared_files(const std::string& sub) {
  std::vector<std::filesystem::path> out;
  auto dir = shared_dir() / sub;
  if (!std::filesystem::is_directory(dir)) return out;
  for (auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// A corpus document: a .json file, or one line of an .ndjson / .jsonl file.
struct corpus_document {
  std::string name;  // the file's name; "name:line" (1-based) for a line
  std::string text;
};

// Every document of ../shared/corpus (none when it is not there).
inline std::vector<corpus_document> corpus_documents() {
  std::vector<corpus_document> out;
  for (const auto& f : shared_files("corpus")) {
    std::string ext = f.extension().string();
    if (ext == ".json") {
      out.push_back({f.filename().string(), read_file(f)});
    } else if (ext == ".ndjson" || ext == ".jsonl") {
      std::string all = read_file(f);
      size_t line = 0;
      for (size_t start = 0; start < all.size();) {
        size_t end = all.find('\n', start);
        if (end == std::string::npos) end = all.size();
        size_t next = end + 1;
        if (end > start && all[end - 1] == '\r') --end;
        ++line;
        if (end > start) out.push_back({f.filename().string() + ":" + std::to_string(line), all.substr(start, end - start)});
        start = next;
      }
    }
  }
  return out;
}

}  // namespace wasmjson::testing_support
