// Access to ../shared (conformance suites, corpus). Absent on a fresh clone elsewhere:
// tests that need it say so in one line and skip only that part.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace wasmjson::testing_support {

inline std::filesystem::path shared_dir() { return WASMJSON_SHARED_DIR; }

inline bool have_shared() { return std::filesystem::is_directory(shared_dir()); }

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

}  // namespace wasmjson::testing_support
