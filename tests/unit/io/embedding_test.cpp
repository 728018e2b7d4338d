// Rotation-system files: a valid file gives each vertex its neighbours in the file's cyclic order
// (ids translated to the input's vertices: a 2-coloured graph's rows, then columns); every
// malformed file fails with "e.txt:<line>: problem" (or "e.txt: problem" for what no line holds)
// in one line; inputs whose sides are numbered separately are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"
#include "unit/io/parse_helpers.hpp"

namespace pmcount {
namespace {

using test::parse;

const std::string kEmbedding = "e.txt";

/// The 4-cycle 10–20–30–40 and the chord-free square drawn in the plane.
const char* const kSquare = "10 20\n20 30\n30 40\n40 10\n";

void expect_refused(const Input& input, const std::string& text, std::int64_t line,
                    const std::string& fragment) {
    try {
        parse_embedding(text, kEmbedding, input);
        ADD_FAILURE() << "accepted:\n" << text;
    } catch (const InvalidInput& e) {
        const std::string what = e.what();
        const std::string prefix =
            kEmbedding + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": ";
        EXPECT_EQ(what.compare(0, prefix.size(), prefix), 0) << what;
        EXPECT_NE(what.find(fragment), std::string::npos) << what;
        EXPECT_EQ(e.line(), line) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

TEST(Embedding, RotationsAreTranslatedToTheInputsVertices) {
    const Input input = parse(kSquare);  // 2-coloured: rows 10, 30; columns 20, 40
    ASSERT_TRUE(input.two_coloured);
    const Embedding e =
        parse_embedding("# the square\n10: 20 40\n20: 30 10\n\n30: 40 20 % comment\n40: 10 30\n",
                        kEmbedding, input);
    ASSERT_EQ(e.rotation.size(), 4u);
    // Vertex k: rows first (their labels 10, 30), then columns (20, 40).
    std::vector<std::vector<std::int64_t>> labels;
    const auto label = [&](vertex_t k) {
        return k < input.rows() ? input.row_label(k) : input.col_label(k - input.rows());
    };
    for (vertex_t k = 0; k < 4; ++k) {
        std::vector<std::int64_t> around{label(k)};
        for (const vertex_t w : e.rotation[static_cast<std::size_t>(k)]) {
            around.push_back(label(w));
        }
        labels.push_back(around);
    }
    EXPECT_NE(std::find(labels.begin(), labels.end(), std::vector<std::int64_t>{30, 40, 20}),
              labels.end());
    EXPECT_NE(std::find(labels.begin(), labels.end(), std::vector<std::int64_t>{20, 30, 10}),
              labels.end());
    // The planner can use it (genus 0 here: FKT with the given drawing).
    CountOptions planar;
    planar.method = Method::planar;
    Input drawn = input;
    drawn.embedding = e;
    const CountResult r = count(drawn, planar);
    EXPECT_EQ(r.exact, BigInt(2));
    EXPECT_EQ(r.method, "pfaffian-surface");
}

TEST(Embedding, MalformedFilesNameTheLine) {
    const Input input = parse(kSquare);
    const std::string good_rest = "20: 30 10\n30: 40 20\n40: 10 30\n";
    expect_refused(input, "10 20 40\n" + good_rest, 1, "expected 'VERTEX: NEIGHBOUR");
    expect_refused(input, "10: 20 x\n" + good_rest, 1, "is not");
    expect_refused(input, "11: 20 40\n" + good_rest, 1, "vertex 11 is not in the graph");
    expect_refused(input, "10: 20 99\n" + good_rest, 1, "vertex 99 is not in the graph");
    expect_refused(input, "10: 20 30\n" + good_rest, 1, "the graph has no edge 10–30");
    expect_refused(input, "10: 20 20\n" + good_rest, 1, "edge 10–20 is listed twice");
    expect_refused(input, "10: 20\n" + good_rest, 1, "has 2 neighbours and lists 1 (missing 40)");
    expect_refused(input, "10: 20 40\n" + good_rest + "10: 40 20\n", 5,
                   "vertex 10 has a second rotation (the first is on line 1)");
    expect_refused(input, good_rest, 0, "vertex 10 (2 neighbours) has no rotation line");
}

TEST(Embedding, InputsWithSeparatelyNumberedSidesAreRefused) {
    const Input bipartite = parse("# bipartite 2 2\n0 0\n0 1\n1 0\n1 1\n");
    expect_refused(bipartite, "0: 0 1\n", 0, "numbers its two sides separately");
    const Input directed = parse("# directed 3\n0 1\n1 2\n2 0\n");
    expect_refused(directed, "0: 1\n", 0, "numbers its two sides separately");
}

TEST(Embedding, GeneralGraphsUseTheirOwnIds) {
    // A triangle plus a pendant pair: not bipartite, so the vertices are the graph's own.
    const Input input = parse("1 2\n2 3\n3 1\n3 4\n");
    ASSERT_TRUE(input.is_general());
    const Embedding e = parse_embedding("1: 2 3\n2: 3 1\n3: 1 2 4\n4: 3\n", kEmbedding, input);
    Input drawn = input;
    drawn.embedding = e;
    EXPECT_EQ(count(drawn).exact, BigInt(1));
    EXPECT_THROW(read_embedding("/nonexistent/e.txt", drawn), InvalidInput);
}

}  // namespace
}  // namespace pmcount
