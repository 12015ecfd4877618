// The seed's algorithm for "Can I Win" (memoised DFS over the set of used numbers, an
// unordered_map from state to result), written here as the peer for the whole-process
// benchmark in BENCHMARKS.md:  g++ -O2 -o /tmp/seed_can_i_win bench/seed_can_i_win.cpp
//   seed_can_i_win MAX TOTAL   prints true or false
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

static int max_pick, target;
static std::unordered_map<long long, bool> seen;

static bool mover_wins(long long used, int total) {
    auto hit = seen.find(used);
    if (hit != seen.end()) return hit->second;
    bool wins = false;
    for (int pick = 1; pick <= max_pick && !wins; ++pick) {
        if ((used >> pick) & 1) continue;
        wins = total + pick >= target || !mover_wins(used | (1LL << pick), total + pick);
    }
    seen[used] = wins;
    return wins;
}

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    max_pick = std::atoi(argv[1]);
    target = std::atoi(argv[2]);
    bool wins = (max_pick + 1) * max_pick / 2 >= target && mover_wins(0, 0);
    std::puts(wins ? "true" : "false");
    return 0;
}
