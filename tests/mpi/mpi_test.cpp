// count_matchings under `mpirun -np 2 --oversubscribe` (PMCOUNT_MPIEXEC): the same answer as one
// process for every engine (the estimators with a sample budget too), bit for bit; checkpoints
// (counts' and estimates') written by two ranks resume in one process and the other way round;
// a rank killed mid-run fails the run without printing a number.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;
using pmcount::test::Outcome;
using pmcount::test::quoted;
using pmcount::test::read_file;

class TwoRanks : public pmcount::test::ScratchDirectoryTest {
protected:
    TwoRanks() : ScratchDirectoryTest("pmcount_mpi_") {}

    /// A shell script with Open MPI's environment for tests: as root too, more ranks than
    /// cores, one host without a remote shell (containers often lack ssh); two minutes at most.
    Outcome mpi_shell(const std::string& script) const {
        return shell(
            "export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
            "OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_plm_rsh_agent=/bin/false; "
            "/usr/bin/timeout 120 /bin/sh -c " +
            quoted(script));
    }
    static std::string mpirun(int ranks) {
        return quoted(PMCOUNT_MPIEXEC) + " -np " + std::to_string(ranks) + " --oversubscribe " +
               quoted(PMCOUNT_COUNT_MATCHINGS);
    }
    Outcome run(int ranks, const std::string& args) {
        const std::string launcher = ranks == 0 ? quoted(PMCOUNT_COUNT_MATCHINGS) : mpirun(ranks);
        return mpi_shell(launcher + " " + args + " < /dev/null > stdout.txt 2> stderr.txt");
    }
    nlohmann::json json(int ranks, const std::string& args) {
        const Outcome r = run(ranks, "--json --threads 1 " + args);
        EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
        return nlohmann::json::parse(r.out.empty() ? "{}" : r.out);
    }
};

TEST_F(TwoRanks, EveryEngineGivesTheOneProcessAnswerBitForBit) {
    const char* const cases[] = {
        "--method ryser random:25,0.5,3",
        "--method sparyser random:25,0.3,4",
        "--method skipper random:27,0.2,5",
        "--method ryser --precision double random:24,0.6,6",
        "--method sparyser --precision dd random:23,0.5,7",
        "--general --method hafnian random:20,0.5,3",
        "--method frontier grid:8x9",
        "--method planar grid:12x12",
    };
    for (const char* args : cases) {
        const nlohmann::json one = json(0, args);
        const nlohmann::json two = json(2, args);
        EXPECT_EQ(two["value"], one["value"]) << args;
        EXPECT_EQ(two.value("abs_error", 0.0), one.value("abs_error", 0.0)) << args;
        EXPECT_EQ(two["method"], one["method"]) << args;
        EXPECT_EQ(two["ranks"], 2) << args;
        EXPECT_EQ(one["ranks"], 1) << args;
    }
}

TEST_F(TwoRanks, EstimatorsShareTheSamplesAndGiveTheOneProcessEstimateBitForBit) {
    // A sample budget fixes the samples drawn; the ranks draw halves of every round.
    const char* const cases[] = {
        "--backend cpu --approx --particles 1 --samples 3000 --seed 5 grid:8x8",
        "--backend cpu --approx --samples 3000 --seed 5 grid:8x8",  // automatic: populations
        "--backend cpu --approx --particles 64 --samples 4096 --seed 6 grid:10x10",
    };
    for (const char* args : cases) {
        const nlohmann::json one = json(0, args);
        const nlohmann::json two = json(2, args);
        EXPECT_EQ(two["log10_value"], one["log10_value"]) << args;
        EXPECT_EQ(two["log10_ci_low"], one["log10_ci_low"]) << args;
        EXPECT_EQ(two["log10_ci_high"], one["log10_ci_high"]) << args;
        EXPECT_EQ(two["samples"], one["samples"]) << args;
        EXPECT_EQ(two["ranks"], 2) << args;
        EXPECT_EQ(one["ranks"], 1) << args;
    }
    // Rank 0 writes the estimator's checkpoint: two ranks' first 2000 samples, resumed by one
    // process to 3000, are the one-process estimate of 3000; and the other way round.
    const std::string half =
        "--backend cpu --approx --particles 1 --seed 5 grid:8x8 --checkpoint e.ckpt";
    const nlohmann::json whole =
        json(0, "--backend cpu --approx --particles 1 --samples 3000 --seed 5 grid:8x8");
    json(2, half + " --samples 2000");
    const nlohmann::json resumed = json(0, half + " --samples 3000 --resume");
    EXPECT_EQ(resumed["log10_value"], whole["log10_value"]);
    EXPECT_EQ(resumed["resumed_samples"], 2000);
    json(0, half + " --samples 2000");
    const nlohmann::json resumed_by_two = json(2, half + " --samples 3000 --resume");
    EXPECT_EQ(resumed_by_two["log10_value"], whole["log10_value"]);
    EXPECT_EQ(resumed_by_two["resumed_samples"], 2000);
}

TEST_F(TwoRanks, GpuEnginesGiveTheOneProcessAnswerBitForBit) {
    // Two ranks share the one GPU (as ranks on two hosts would each use theirs).
    if (run(0, "--backend cuda --method ryser random:12,0.5,1").status != 0) {
        GTEST_SKIP() << "no GPU visible (or a build without CUDA)";
    }
    const char* const cases[] = {
        "--backend cuda --method ryser random:34,0.5,3",
        "--backend cuda --method ryser --precision double random:33,0.6,6",
        "--backend cuda --method skipper random:38,0.2,6",
        "--backend cuda --method sparyser --gpu-kernels generated --precision dd random:33,0.3,4",
        // 44 vertices: 22 pairs, so the ranks share the hafnian's subtree roots.
        "--general --backend cuda --method hafnian random:22,0.5,3",
    };
    for (const char* args : cases) {
        const nlohmann::json one = json(0, args);
        const nlohmann::json two = json(2, args);
        EXPECT_EQ(two["value"], one["value"]) << args;
        EXPECT_EQ(two.value("abs_error", 0.0), one.value("abs_error", 0.0)) << args;
        EXPECT_EQ(two["method"], one["method"]) << args;
        EXPECT_EQ(two["ranks"], 2) << args;
    }
}

TEST_F(TwoRanks, CheckpointsMoveBetweenRankCounts) {
    const std::string args = "--backend cpu --method ryser --checkpoint-every 0.1 random:29,0.5,7";
    const std::string truth = json(0, "random:29,0.5,7")["value"];
    // Two ranks stopped after the checkpoint's first write by SIGTERM to every rank, as a batch
    // system preempting the job sends it (Open MPI 4.1's mpirun passes a signal of its own on
    // only when it tears the job down).
    const Outcome stopped = mpi_shell(
        mpirun(2) + " --threads 1 " + args +
        " --checkpoint c.ckpt < /dev/null > stdout.txt 2> stderr.txt & pid=$!; tries=0; "
        "while [ ! -s c.ckpt ] && [ $tries -lt 1200 ]; do sleep 0.05; tries=$((tries + 1)); "
        "done; for p in $(pgrep -f 'random:29,0.5,7'); do if tr '\\0' '\\n' < "
        "/proc/$p/environ 2>/dev/null | grep -q '^OMPI_COMM_WORLD_RANK='; then kill -TERM $p; "
        "fi; done; wait $pid");
    EXPECT_NE(stopped.err.find("checkpoint written to c.ckpt"), std::string::npos) << stopped.err;
    EXPECT_NE(stopped.status, 0);
    EXPECT_EQ(stopped.out, "");
    ASSERT_TRUE(fs::exists(dir_ / "c.ckpt")) << stopped.err;
    const std::string saved = read_file(dir_ / "c.ckpt");
    // ... resumed by one process, and by two ranks.
    const nlohmann::json one = json(0, args + " --checkpoint c.ckpt --resume");
    EXPECT_EQ(one["value"], truth);
    std::ofstream(dir_ / "c.ckpt", std::ios::binary) << saved;
    const nlohmann::json two = json(2, args + " --checkpoint c.ckpt --resume");
    EXPECT_EQ(two["value"], truth);
    EXPECT_EQ(two["resumed_chunks"], one["resumed_chunks"]);
    EXPECT_GT(two["resumed_chunks"].get<int>(), 0);
    // A damaged checkpoint is refused by every rank alike: one line, no hang.
    std::ofstream(dir_ / "c.ckpt", std::ios::binary) << saved.substr(0, saved.size() - 9);
    const Outcome refused = run(2, "--threads 1 " + args + " --checkpoint c.ckpt --resume");
    EXPECT_EQ(refused.status, 2) << refused.err;
    EXPECT_EQ(refused.out, "");
    EXPECT_NE(refused.err.find("error: c.ckpt: cannot resume from it: it is truncated"),
              std::string::npos)
        << refused.err;
}

TEST_F(TwoRanks, ARankKilledMidRunFailsTheRunWithoutANumber) {
    // Rank 1 (found by its environment) gets SIGKILL once the run is under way.
    const Outcome r = mpi_shell(
        mpirun(2) +
        " --backend cpu --method ryser --threads 1 random:31,0.5,9 < /dev/null > stdout.txt 2> "
        "stderr.txt & "
        "pid=$!; sleep 1.5; for p in $(pgrep -f 'random:31,0.5,9'); do "
        "if tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1; "
        "then kill -KILL $p; fi; done; wait $pid");
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(r.err.empty());
}

}  // namespace
