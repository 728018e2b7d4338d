// Checkpoints of a count (lib/run): the file round-trips and refuses every kind of damage and
// every other run; a count stopped by request_stop() and resumed gives the uninterrupted value,
// bit for bit, on every engine that runs through the session.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "pmcount/build_info.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "run/checkpoint.hpp"
#include "run/mpi.hpp"
#include "support/random_matrices.hpp"
#include "support/scratch.hpp"

namespace pmcount {
namespace {

namespace fs = std::filesystem;

class Checkpoints : public test::ScratchDirectoryTest {
protected:
    Checkpoints() : ScratchDirectoryTest("pmcount_run_") {}
    std::string file(const std::string& name) const { return (dir_ / name).string(); }
};

run::Task task_with(int bits, std::uint64_t chunks, std::size_t record_bytes, int seed) {
    run::Task t;
    t.bits = bits;
    t.chunks = chunks;
    t.record_bytes = record_bytes;
    t.done.assign(chunks, 0);
    t.records.assign(chunks * record_bytes, 0);
    for (std::uint64_t c = 0; c < chunks; c += 2) {
        t.done[c] = 1;
        for (std::size_t b = 0; b < record_bytes; ++b) {
            t.record(c)[b] = static_cast<unsigned char>(seed + 31 * c + b);
        }
    }
    return t;
}

CountOptions with_method(Method method) {
    CountOptions options;
    options.method = method;
    return options;
}

const run::Identity kIdentity{"0.1.0", "4×4, 16 entries, hash 1",
                              "exact precision, engines ryser 4"};

TEST_F(Checkpoints, FileRoundTripsIdentityAndFinishedRecords) {
    const std::vector<run::Task> tasks{task_with(20, 8, 16, 1), task_with(30, 5, 40, 7)};
    const std::string bytes = run::encode_checkpoint(kIdentity, tasks);
    const run::Checkpoint back = run::decode_checkpoint("c", bytes);
    EXPECT_EQ(back.identity.version, kIdentity.version);
    EXPECT_EQ(back.identity.input, kIdentity.input);
    EXPECT_EQ(back.identity.plan, kIdentity.plan);
    ASSERT_EQ(back.tasks.size(), 2U);
    for (std::size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(back.tasks[k].bits, tasks[k].bits);
        EXPECT_EQ(back.tasks[k].done, tasks[k].done);
        run::Task opened = back.tasks[k];
        ASSERT_TRUE(opened.packed);
        EXPECT_EQ(opened.records.size(), opened.finished() * opened.record_bytes);
        opened.unpack();
        EXPECT_EQ(opened.records, tasks[k].records);  // unfinished records stay zero
    }
    // A checkpoint read and written again (loops this run has not reached stay packed) is the
    // same file.
    EXPECT_EQ(run::encode_checkpoint(back.identity, back.tasks), bytes);
    run::write_atomically(file("c"), bytes);
    EXPECT_EQ(run::read_file(file("c")), bytes);
    EXPECT_FALSE(fs::exists(file("c.tmp")));
}

TEST_F(Checkpoints, EveryTruncationAndEveryFlippedByteIsRefused) {
    const std::string bytes =
        run::encode_checkpoint(kIdentity, {task_with(20, 8, 16, 1), task_with(24, 3, 24, 2)});
    for (std::size_t length = 0; length < bytes.size(); ++length) {
        EXPECT_THROW(run::decode_checkpoint("c", bytes.substr(0, length)), CheckpointError)
            << "cut to " << length << " bytes";
    }
    for (std::size_t at = 0; at < bytes.size(); ++at) {
        std::string damaged = bytes;
        damaged[at] = static_cast<char>(damaged[at] ^ 0x10);
        EXPECT_THROW(run::decode_checkpoint("c", damaged), CheckpointError) << "byte " << at;
    }
    EXPECT_THROW(run::decode_checkpoint("c", bytes + "x"), CheckpointError);
    try {
        run::decode_checkpoint("some.ckpt", "%%MatrixMarket matrix coordinate\n");
        FAIL() << "a foreign file was accepted";
    } catch (const CheckpointError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "some.ckpt: it does not start with \"pmcount-checkpoint 1\"");
    }
}

TEST_F(Checkpoints, ClaimedSizesCostTheFileUntilARunConfirmsThem) {
    // 2^20 chunks of 64 KiB records would be 64 GiB; none is done, so the file is 1 MiB.
    run::Task claim;
    claim.bits = 40;
    claim.chunks = std::uint64_t{1} << 20;
    claim.record_bytes = std::size_t{1} << 16;
    claim.done.assign(claim.chunks, 0);
    claim.packed = true;  // (encoding needs no record slots for undone chunks)
    const std::string bytes = run::encode_checkpoint(kIdentity, {claim});
    const run::Checkpoint back = run::decode_checkpoint("c", bytes);
    ASSERT_EQ(back.tasks.size(), 1U);
    EXPECT_EQ(back.tasks[0].chunks, claim.chunks);
    EXPECT_TRUE(back.tasks[0].records.empty());
    // A run whose loop has other sizes refuses it before giving it a slot per chunk.
    run::write_atomically(file("c"), bytes);
    run::Session session(kIdentity, run::SessionOptions{file("c"), true, 10, false});
    run::ChunkWork work;
    work.compute = [](std::uint64_t, unsigned char*) {};
    work.load = [](std::uint64_t, const unsigned char*) {};
    EXPECT_THROW(session.run_task(20, 1024, 16, 1, work), CheckpointError);
}

TEST_F(Checkpoints, AnEstimateStreamOfMoreThanAMillionRecordsResumes) {
    // An estimate's stream has a chunk per sample: 2^20 + 1 of them once could not be resumed.
    run::Task stream;
    stream.chunks = (std::uint64_t{1} << 20) + 1;
    stream.record_bytes = sizeof(double);
    stream.done.assign(stream.chunks, 1);
    stream.records.resize(stream.chunks * sizeof(double));
    for (std::uint64_t c = 0; c < stream.chunks; ++c) {
        const double value = static_cast<double>(c) / 3;
        std::memcpy(stream.record(c), &value, sizeof value);
    }
    run::write_atomically(file("s"), run::encode_checkpoint(kIdentity, {stream}));
    run::Session session(kIdentity, run::SessionOptions{file("s"), true, 10, false});
    const run::Task& resumed = session.open_stream(sizeof(double));
    EXPECT_EQ(resumed.chunks, stream.chunks);
    EXPECT_EQ(resumed.records, stream.records);
    // So can one stopped before its first sample.
    run::Task empty;
    empty.record_bytes = sizeof(double);
    run::write_atomically(file("e"), run::encode_checkpoint(kIdentity, {empty}));
    run::Session from_empty(kIdentity, run::SessionOptions{file("e"), true, 10, false});
    EXPECT_EQ(from_empty.open_stream(sizeof(double)).chunks, 0U);
}

TEST_F(Checkpoints, IdentityMismatchNamesWhatDiffers) {
    run::Identity other = kIdentity;
    EXPECT_EQ(run::identity_mismatch(kIdentity, other), "");
    other.plan = "double precision, engines ryser 4";
    EXPECT_NE(run::identity_mismatch(kIdentity, other).find("another precision or engine"),
              std::string::npos);
    other.input = "4×4, 15 entries, hash 2";
    EXPECT_NE(run::identity_mismatch(kIdentity, other).find("another input"), std::string::npos);
    other.version = "0.2.0";
    EXPECT_NE(run::identity_mismatch(kIdentity, other).find("pmcount 0.1.0"), std::string::npos);
}

/// Options that stop the count once `stop_at` of it is done (the chunks under way finish).
CountOptions stopping(CountOptions options, double stop_at) {
    options.progress_interval_s = 0;
    options.progress = [stop_at](const Progress& p) {
        if (p.fraction >= stop_at) {
            request_stop();
        }
    };
    return options;
}

/// Counts `a` with a checkpoint, stopped at 30%, then resumed: returns the resumed result after
/// checking that the stop happened and that the resumed run loaded some chunks.
template <class Count>
CountResult interrupted_and_resumed(const Count& count, CountOptions options) {
    EXPECT_THROW(count(stopping(options, 0.3)), Interrupted);
    EXPECT_TRUE(fs::exists(options.checkpoint));
    options.resume = true;
    CountResult resumed = count(options);
    EXPECT_GT(resumed.stats.resumed_chunks, 0U);
    return resumed;
}

TEST_F(Checkpoints, ExactEnginesResumeToTheUninterruptedCount) {
    const auto binary = test::random_binary_with_matching(26, 0.5, 11);
    const auto integer = test::random_integer(23, -3, 5, 0.6, 12);
    for (const Method method : {Method::ryser, Method::sparyser, Method::skipper}) {
        CountOptions options;
        options.method = method;
        options.threads = 2;
        options.checkpoint = file(std::string(to_string(method)) + ".ckpt");
        for (const auto* a : {&binary, &integer}) {
            fs::remove(options.checkpoint);
            auto count = [a](const CountOptions& o) { return permanent(*a, o); };
            const CountResult plain = permanent(*a, with_method(options.method));
            const CountResult resumed = interrupted_and_resumed(count, options);
            EXPECT_EQ(resumed.exact, plain.exact) << to_string(method) << " n=" << a->rows();
            EXPECT_EQ(resumed.method, plain.method);
        }
    }
}

TEST_F(Checkpoints, HafnianResumesToTheUninterruptedCount) {
    const auto b = test::random_binary(36, 0.5, 5);
    DenseMatrix<std::int64_t> symmetric(36, 36);
    for (int i = 0; i < 36; ++i) {
        for (int j = 0; j < i; ++j) {
            symmetric(i, j) = symmetric(j, i) = b(i, j);
        }
    }
    CountOptions options;
    options.method = Method::hafnian;
    options.threads = 2;
    options.checkpoint = file("hafnian.ckpt");
    auto count = [&](const CountOptions& o) { return hafnian(symmetric, o); };
    const CountResult plain = hafnian(symmetric, with_method(Method::hafnian));
    EXPECT_EQ(interrupted_and_resumed(count, options).exact, plain.exact);
}

TEST_F(Checkpoints, FloatingResultsResumeBitForBit) {
    const auto real = test::random_real(23, -1, 1, 0.7, 21);
    const auto complex = test::random_complex(21, 0.7, 22);
    for (const Method method : {Method::ryser, Method::sparyser}) {
        for (const Precision precision : {Precision::double_precision, Precision::double_double}) {
            CountOptions options;
            options.method = method;
            options.precision = precision;
            options.threads = 2;
            options.checkpoint = file("real.ckpt");
            fs::remove(options.checkpoint);
            auto count = [&](const CountOptions& o) { return permanent(real, o); };
            CountOptions plain_options = options;
            plain_options.checkpoint.clear();
            const CountResult plain = permanent(real, plain_options);
            const CountResult resumed = interrupted_and_resumed(count, options);
            EXPECT_EQ(resumed.mantissa, plain.mantissa) << to_string(method);
            EXPECT_EQ(resumed.exponent2, plain.exponent2);
            EXPECT_EQ(resumed.abs_error, plain.abs_error);
        }
        CountOptions options;
        options.method = method;
        options.threads = 2;
        options.checkpoint = file("complex.ckpt");
        auto count = [&](const CountOptions& o) { return permanent(complex, o); };
        const CountResult plain = permanent(complex, with_method(method));
        EXPECT_EQ(interrupted_and_resumed(count, options).complex_value, plain.complex_value);
    }
}

TEST_F(Checkpoints, AFinishedCheckpointIsLoadedNotRecomputed) {
    const auto a = test::random_binary_with_matching(22, 0.5, 3);
    CountOptions options = with_method(Method::ryser);
    options.checkpoint = file("done.ckpt");
    const CountResult first = permanent(a, options);
    EXPECT_EQ(first.stats.resumed_chunks, 0U);
    options.resume = true;
    const CountResult again = permanent(a, options);
    EXPECT_EQ(again.exact, first.exact);
    EXPECT_EQ(again.stats.resumed_chunks, 1024U);  // 2^21 steps in 1024 chunks, all loaded
}

TEST_F(Checkpoints, AnotherInputPrecisionOrEngineIsRefused) {
    const auto a = test::random_binary_with_matching(20, 0.5, 1);
    const auto other = test::random_binary_with_matching(20, 0.5, 2);
    CountOptions options = with_method(Method::ryser);
    options.checkpoint = file("a.ckpt");
    permanent(a, options);
    options.resume = true;
    EXPECT_THROW(permanent(other, options), CheckpointError);
    CountOptions sparse = options;
    sparse.method = Method::sparyser;
    EXPECT_THROW(permanent(a, sparse), CheckpointError);
    CountOptions floating = options;
    floating.precision = Precision::double_precision;
    EXPECT_THROW(permanent(a, floating), CheckpointError);
    options.checkpoint = file("missing.ckpt");
    EXPECT_THROW(permanent(a, options), CheckpointError);
}

TEST_F(Checkpoints, AStopWithoutACheckpointStillEndsTheCount) {
    const auto a = test::random_binary_with_matching(24, 0.5, 4);
    CountOptions options = with_method(Method::ryser);
    options.threads = 2;
    try {
        permanent(a, stopping(options, 0.2));
        FAIL() << "the count was not stopped";
    } catch (const Interrupted& e) {
        EXPECT_NE(std::string(e.what()).find("no checkpoint was asked for"), std::string::npos)
            << e.what();
    }
    // The stop was consumed: the next count runs to the end.
    EXPECT_EQ(permanent(a, options).exact, permanent(a, with_method(Method::sparyser)).exact);
}

TEST(GpuShare, RanksOfOneHostSplitTheGpusAndNeverLeaveOneIdle) {
    const std::vector<int> four{0, 1, 2, 3};
    // One rank per GPU, two GPUs per rank, one rank with all.
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(run::mpi::gpu_share(four, r, 4), std::vector<int>{r});
    }
    EXPECT_EQ(run::mpi::gpu_share(four, 0, 2), (std::vector<int>{0, 1}));
    EXPECT_EQ(run::mpi::gpu_share(four, 1, 2), (std::vector<int>{2, 3}));
    EXPECT_EQ(run::mpi::gpu_share(four, 0, 1), four);
    // Uneven: 3 ranks over 4 GPUs cover every GPU once; 6 ranks over 4 share them round robin.
    std::vector<int> covered;
    for (int r = 0; r < 3; ++r) {
        const auto mine = run::mpi::gpu_share(four, r, 3);
        EXPECT_FALSE(mine.empty());
        covered.insert(covered.end(), mine.begin(), mine.end());
    }
    EXPECT_EQ(covered, four);
    EXPECT_EQ(run::mpi::gpu_share(four, 5, 6), std::vector<int>{1});
    // Named indices (not 0..G-1) are kept; no GPU, no share; outside a run of ranks, all of them.
    EXPECT_EQ(run::mpi::gpu_share({2, 5}, 1, 2), std::vector<int>{5});
    EXPECT_TRUE(run::mpi::gpu_share({}, 1, 2).empty());
    EXPECT_EQ(run::mpi::gpu_share(four), four);
}

TEST(GpuShare, TheGpusToUseAreTheNamedOnesOrAllOrTheRanksShare) {
    std::vector<DeviceInfo> host;
    for (const int g : {0, 1, 2, 3}) {
        host.push_back({g, "H100", 9, 0, 132, 0});
    }
    EXPECT_EQ(run::mpi::gpus_to_use(host, {2, 0}, false), (std::vector<int>{2, 0}));
    EXPECT_EQ(run::mpi::gpus_to_use(host, {}, false), (std::vector<int>{0, 1, 2, 3}));
    // Outside a run of ranks the share is all of them.
    EXPECT_EQ(run::mpi::gpus_to_use(host, {}, true), (std::vector<int>{0, 1, 2, 3}));
    try {
        run::mpi::gpus_to_use(host, {1, 7}, false);
        FAIL() << "GPU 7 was accepted";
    } catch (const DeviceError& e) {
        EXPECT_EQ(std::string(e.what()), "GPU 7 is not visible (4 visible)");
    }
    EXPECT_THROW(run::mpi::gpus_to_use({}, {0}, false), DeviceError);
}

}  // namespace
}  // namespace pmcount
