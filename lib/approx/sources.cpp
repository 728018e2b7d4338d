// The sample sources (sources.hpp): CPU threads with a contiguous workspace per sample or
// particle, and GPUs through the CUDA backend. Built with -ffp-contract=off, as the GPU kernel
// is, so that both draw identical samples.
#include "approx/sources.hpp"

#include <omp.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <thread>

#include "approx/host_workspace.hpp"
#include "approx/population.hpp"
#include "approx/sampler_device.hpp"
#include "core/stop.hpp"
#include "run/mpi.hpp"

namespace pmcount::approx {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// Particles on CPU threads, each with a contiguous workspace; resampling copies workspaces.
class CpuParticles {
public:
    CpuParticles(const SamplerProblem& p, SamplerConfig config, int threads)
        : problem_(p), config_(config), threads_(threads) {}

    /// As SampleSource::stop_inside (the workspaces of a large population take seconds).
    bool stop_inside = false;

    void begin_particles(std::uint64_t first, std::uint64_t count) {
        first_ = first;
        while (states_.size() < count) {
            if (stop_inside && pmcount::detail::stop_requested()) {
                return;  // run_populations leaves before the first stage
            }
            states_.emplace_back(problem_.n);
            next_.emplace_back(problem_.n);
        }
        cursors_.resize(count);
        next_cursors_.resize(count);
        const SamplerStart start = problem_.start();
        const auto total = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            begin_sample(problem_.n, start, config_, states_[static_cast<std::size_t>(k)],
                         cursors_[static_cast<std::size_t>(k)]);
        }
    }
    void advance_particles(vertex_t until) {
        if (problem_.dense) {
            advance(problem_.dense_view(), until);
        } else {
            advance(problem_.sparse_view(), until);
        }
    }
    void particle_log_weights(double* out) const {
        for (std::size_t k = 0; k < cursors_.size(); ++k) {
            out[k] = cursors_[k].log_estimate + cursors_[k].log_potential;
        }
    }
    void select_particles(const std::uint32_t* ancestors) {
        const auto total = static_cast<std::int64_t>(cursors_.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            const auto to = static_cast<std::size_t>(k);
            const std::size_t from = ancestors[to];
            next_[to] = states_[from];
            next_cursors_[to] = cursors_[from];
            if (next_cursors_[to].log_estimate > kNegInf) {
                next_cursors_[to].log_estimate = -next_cursors_[to].log_potential;
            }
        }
        std::swap(states_, next_);
        std::swap(cursors_, next_cursors_);
    }

private:
    template <class Matrix>
    void advance(const Matrix& a, vertex_t until) {
        const auto total = static_cast<std::int64_t>(cursors_.size());
#pragma omp parallel for schedule(dynamic, 4) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            const auto i = static_cast<std::size_t>(k);
            advance_sample(a, config_, states_[i], cursors_[i],
                           first_ + static_cast<std::uint64_t>(k), until);
        }
    }

    const SamplerProblem& problem_;
    SamplerConfig config_;
    int threads_;
    std::uint64_t first_ = 0;
    std::vector<HostWorkspace> states_, next_;
    std::vector<SampleCursor> cursors_, next_cursors_;
};

class CpuSource : public SampleSource {
public:
    CpuSource(const SamplerProblem& p, SamplerConfig config, int threads, PopulationPlan plan)
        : problem_(p),
          config_(config),
          threads_(threads),
          plan_(plan),
          particles_(p, config, threads) {
        for (int t = 0; t < threads; ++t) {
            workspaces_.emplace_back(p.n);
        }
    }
    void sample(std::uint64_t first, std::uint64_t count, double* logs) override {
        if (problem_.dense) {
            run(problem_.dense_view(), first, count, logs);
        } else {
            run(problem_.sparse_view(), first, count, logs);
        }
    }
    /// Enough particles for 64 per thread, at least one population.
    std::uint64_t population_round() override {
        constexpr std::uint64_t kParticlesPerThread = 64;
        const std::uint64_t wanted = kParticlesPerThread * static_cast<std::uint64_t>(threads_);
        return std::max<std::uint64_t>(1, wanted / plan_.particles);
    }
    void populations(std::uint64_t first, std::uint64_t count, double* logs) override {
        particles_.stop_inside = stop_inside;
        run_populations(particles_, problem_.n, plan_, config_.seed, population_round(), first,
                        count, logs, stop_inside);
    }

private:
    template <class Matrix>
    void run(const Matrix& a, std::uint64_t first, std::uint64_t count, double* logs) {
        const SamplerStart start = problem_.start();
        const auto total = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            if (stop_inside && pmcount::detail::stop_requested()) {
                continue;
            }
            HostWorkspace& w = workspaces_[static_cast<std::size_t>(omp_get_thread_num())];
            logs[k] =
                sample_log_estimate(a, start, config_, w, first + static_cast<std::uint64_t>(k));
        }
    }

    const SamplerProblem& problem_;
    SamplerConfig config_;
    int threads_;
    PopulationPlan plan_;
    CpuParticles particles_;
    std::vector<HostWorkspace> workspaces_;
};

/// The GPUs share each round in equal contiguous parts (populations: in proportion to what each
/// holds), one host thread per GPU.
class GpuSource : public SampleSource {
public:
    GpuSource(std::vector<std::unique_ptr<backend::cuda::GpuSampler>> samplers, vertex_t steps,
              std::uint64_t seed, PopulationPlan plan)
        : n_(steps), seed_(seed), plan_(plan), samplers_(std::move(samplers)) {}
    /// Every GPU holds as many whole populations as fit at once.
    std::uint64_t population_round() override {
        std::uint64_t round = 0;
        for (const auto& g : samplers_) {
            round += g->population_capacity(plan_.particles) / plan_.particles;
        }
        return round;
    }
    /// The GPUs split the populations in proportion to what they hold, one host thread each.
    void populations(std::uint64_t first, std::uint64_t count, double* logs) override {
        std::vector<std::uint64_t> batch;
        std::uint64_t total = 0;
        for (const auto& g : samplers_) {
            batch.push_back(g->population_capacity(plan_.particles) / plan_.particles);
            total += batch.back();
        }
        std::vector<std::uint64_t> bounds{0};  // GPU g takes populations [bounds[g], bounds[g + 1])
        for (std::size_t g = 0; g < samplers_.size(); ++g) {
            bounds.push_back(g + 1 == samplers_.size() ? count
                                                       : bounds[g] + count * batch[g] / total);
        }
        on_each_gpu([&](std::size_t g) {
            run_populations(*samplers_[g], n_, plan_, seed_, batch[g], first + bounds[g],
                            bounds[g + 1] - bounds[g], logs + bounds[g], stop_inside);
        });
    }
    void sample(std::uint64_t first, std::uint64_t count, double* logs) override {
        const std::uint64_t parts = samplers_.size();
        on_each_gpu([&](std::size_t g) {
            const std::uint64_t begin = count * g / parts, end = count * (g + 1) / parts;
            samplers_[g]->sample(first + begin, end - begin, logs + begin);
        });
    }
    std::uint64_t min_round() const override {
        std::uint64_t slots = 0;
        for (const auto& g : samplers_) {
            slots += g->slots();
        }
        return std::max<std::uint64_t>(1024, slots);
    }
    double device_seconds() const override {
        double s = 0;
        for (const auto& g : samplers_) {
            s = std::max(s, g->device_seconds());
        }
        return s;
    }
    std::string description() const override {
        std::string d;
        for (const auto& g : samplers_) {
            d += (d.empty() ? "" : ", ") + g->description();
        }
        return d;
    }

private:
    /// work(g) for every GPU g, one host thread each (none for a single GPU); the first
    /// exception is rethrown after all have finished.
    template <class Work>
    void on_each_gpu(Work&& work) {
        if (samplers_.size() == 1) {
            work(std::size_t{0});
            return;
        }
        std::vector<std::thread> workers;
        std::vector<std::exception_ptr> errors(samplers_.size());
        for (std::size_t g = 0; g < samplers_.size(); ++g) {
            workers.emplace_back([&, g] {
                try {
                    work(g);
                } catch (...) {
                    errors[g] = std::current_exception();
                }
            });
        }
        for (auto& w : workers) {
            w.join();
        }
        for (const auto& e : errors) {
            if (e) {
                std::rethrow_exception(e);
            }
        }
    }

    vertex_t n_;
    std::uint64_t seed_;
    PopulationPlan plan_;
    std::vector<std::unique_ptr<backend::cuda::GpuSampler>> samplers_;
};

}  // namespace

std::unique_ptr<SampleSource> cpu_source(const SamplerProblem& p, SamplerConfig config, int threads,
                                         PopulationPlan plan) {
    return std::make_unique<CpuSource>(p, config, threads, plan);
}

std::unique_ptr<SampleSource> gpu_source(const SamplerProblem& p, SamplerConfig config,
                                         const std::vector<int>& gpus, PopulationPlan plan) {
    std::vector<std::unique_ptr<backend::cuda::GpuSampler>> samplers;
    for (const int device : gpus) {
        samplers.push_back(backend::cuda::make_gpu_sampler({device, &p, config}));
    }
    return gpu_source(std::move(samplers), p.n, config.seed, plan);
}

std::unique_ptr<SampleSource> gpu_source(
    std::vector<std::unique_ptr<backend::cuda::GpuSampler>> samplers, vertex_t steps,
    std::uint64_t seed, PopulationPlan plan) {
    return std::make_unique<GpuSource>(std::move(samplers), steps, seed, plan);
}

std::vector<int> visible_gpus(const EstimateOptions& o, bool required) {
    std::string status;
    const auto devices =
        backend::cuda::compiled() ? backend::cuda::devices(status) : std::vector<DeviceInfo>{};
    if (devices.empty()) {
        if (required) {
            if (!backend::cuda::compiled()) {
                throw NotCompiled("--backend cuda: this build has no CUDA backend");
            }
            throw DeviceError("--backend cuda: no GPU visible (" + status + ")");
        }
        return {};
    }
    return run::mpi::gpus_to_use(devices, o.gpus, o.distributed);
}

}  // namespace pmcount::approx
