// What the generators share (library-internal): their limits, their error and stop conventions,
// and the configuration model's pair counts (generators.cpp: bipartite, lattices.cpp: general).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pmcount/error.hpp"

namespace pmcount::generators {

/// Most edges a generator spec may ask for (its vertices a side are kMaxVertices, the limit of
/// files too): a graph of 2^24 edges takes about 1 GiB to generate and hand to count() (its
/// edge list, both adjacencies, then the matrix's entries), the most the memory limit leaves
/// unpredicted; count() then predicts the plan's memory before planning.
constexpr std::int64_t kMaxGeneratedEdges = std::int64_t{1} << 24;

/// What an interrupted generator was doing (pmcount::detail::throw_if_stopped).
constexpr const char* kGenerating = "generating the graph";

inline void require(bool condition, const std::string& problem) {
    if (!condition) {
        throw InvalidArgument(problem);
    }
}

/// Multiplicities of the configuration model's (left, right) pairs, keyed by left·n + right:
/// open addressing with linear probing, at most half full. A pair whose count drops to 0 keeps
/// its slot until the table is rebuilt (when it would be more than half full: at four times the
/// live pairs, which are at most m). O(1) expected per operation, where an ordered multiset took
/// O(log m) and a node per copy (6 s for regular:2000,1000).
class PairCounts {
public:
    explicit PairCounts(std::size_t expected) { rebuild(2 * expected); }

    int count(std::uint64_t pair) const noexcept {
        const Slot& slot = slots_[find(pair + 1)];
        return slot.key == 0 ? 0 : slot.count;
    }

    void add(std::uint64_t pair, int delta) {
        if (2 * (used_ + 1) > slots_.size()) {
            std::size_t live = 0;
            for (const Slot& slot : slots_) {
                live += slot.key != 0 && slot.count != 0 ? 1 : 0;
            }
            rebuild(4 * (live + 1));
        }
        Slot& slot = slots_[find(pair + 1)];
        if (slot.key == 0) {
            slot.key = pair + 1;
            ++used_;
        }
        slot.count += delta;
    }

private:
    struct Slot {
        std::uint64_t key = 0;  // pair + 1; 0: free
        int count = 0;
    };

    /// The slot holding `key`, or the free slot where it would go.
    std::size_t find(std::uint64_t key) const noexcept {
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ULL) >> shift_) & mask;
        while (slots_[i].key != 0 && slots_[i].key != key) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /// At least `size` slots (a power of two), holding the pairs of nonzero count.
    void rebuild(std::size_t size) {
        int bits = 4;
        while ((std::size_t{1} << bits) < size) {
            ++bits;
        }
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(std::size_t{1} << bits, Slot{});
        shift_ = 64 - bits;
        used_ = 0;
        for (const Slot& slot : old) {
            if (slot.key != 0 && slot.count != 0) {
                slots_[find(slot.key)] = slot;
                ++used_;
            }
        }
    }

    std::vector<Slot> slots_;
    std::size_t used_ = 0;
    int shift_ = 60;
};

}  // namespace pmcount::generators
