// The cost model's measured rates as the formulas read them (cost_model.cpp): one member per
// key of lib/plan/rates/*.txt, filled from the compiled-in files and then from $PMCOUNT_RATES's
// (pmcount/cost_rates.hpp describes the format and the errors).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pmcount/cost_rates.hpp"

namespace pmcount::plan {

/// Units as in the rates files: ns per step, row, term or multiply-add unless the name says _s
/// (seconds); ratios and exponents are plain numbers.
struct CostRates {
    double step_base_ns = 0;
    double row_double_ns = 0;
    double row_double_double_ns = 0;
    double row_complex_ns = 0;
    double row_exact_ns = 0;
    double term_compact_ns = 0;
    double term_prime_lane_ns = 0;
    double modular_row_ns = 0;
    double certified_over_double = 0;
    double start_s = 0;
    double walk_replay_row_ns = 0;
    double walk_replay_row_complex_ns = 0;
    double parallel_efficiency = 0;
    double sparse_start_s = 0;
    double sparse_step_ns = 0;
    double sparse_entry_ns = 0;
    double skip_visit_ns = 0;
    double skip_visit_row_ns = 0;
    double skip_jump_entry_ns = 0;
    double skip_binary_visit_test_ns = 0;
    double skip_binary_dynamic_row_ns = 0;
    double skip_binary_sub_block_row_ns = 0;
    double brute_force_node_ns = 0;
    double pairing_node_ns = 0;
    double probe_reference_ns = 0;
    double probe_reference_threads_ns = 0;
    double planar_setup_per_vertex_s = 0;
    double planar_nested_s = 0;
    double planar_band_s = 0;
    double replay_share = 0;
    double frontier_vertex_s = 0;
    double frontier_visit_ns = 0;
    double frontier_word_ns = 0;
    double frontier_cache_ns = 0;
    double frontier_cache_from_log2 = 0;
    double frontier_level = 0;
    double frontier_thread_exponent = 0;
    double frontier_second_pass_loss = 0;
    double frontier_torus_lane_update_ns = 0;
    double matchings_frontier_state_ns = 0;
    double matchings_frontier_lane_ns = 0;
    double hafnian_double_ns = 0;
    double hafnian_double_double_ns = 0;
    double hafnian_complex_ns = 0;
    double hafnian_exact_lanes_ns = 0;
    double hafnian_start_s = 0;
    double repeated_exact_ns = 0;
    double repeated_real_ns = 0;
    double repeated_complex_ns = 0;
    double paired_exact_ns = 0;
    double paired_real_ns = 0;
    double paired_complex_ns = 0;
    double pfaffian_setup_per_vertex_s = 0;
    double pfaffian_nested_s = 0;
    double surface_nested_exact_s = 0;
    double surface_nested_double_s = 0;
    double surface_complex_factor = 0;
    double surface_start_s = 0;
    double surface_fourier_bond_ns = 0;
    double surface_fourier_site3_ns = 0;
    double surface_fourier_setup_per_vertex_s = 0;
    double planar_bytes_per_vertex_log = 0;
    double planning_bytes_per_vertex = 0;
    double planning_bytes_per_entry = 0;
    double frontier_bytes_per_state = 0;
    double frontier_bytes_per_word = 0;
    double gpu_fp64_per_sm_sm90 = 0;
    double gpu_fp64_per_sm_sm80 = 0;
    double gpu_fp64_per_sm_other = 0;
    double gpu_ryser_setup_s = 0;
    double gpu_ryser_efficiency = 0;
    double gpu_double_factor = 0;
    double gpu_exact_base = 0;
    double gpu_exact_per_prime = 0;
    double gpu_double_double_factor = 0;
    double gpu_complex_factor = 0;
    double gpu_certified_over_compensated = 0;
    double gpu_sparse_setup_s = 0;
    double gpu_generate_compile_s = 0;
    double gpu_generate_compile_double_double_s = 0;
    double gpu_walk_step_fixed = 0;
    double gpu_tables_entry = 0;
    double gpu_generated_float_entry = 0;
    double gpu_generated_exact_entry = 0;
    double gpu_tables_term_prime = 0;
    double gpu_generated_term_prime = 0;
    double gpu_partial_product_share = 0;
    double gpu_tables_slowdown = 0;
    double gpu_generated_compensated_unroll = 0;
    double gpu_generated_double_double_row = 0;
    double gpu_tables_double_double_row = 0;
    double gpu_skip_generated_over_cpu = 0;
    double gpu_skip_tables_over_cpu = 0;
    double gpu_skip_reference_cpu_threads = 0;
    double gpu_skip_reference_multiprocessors = 0;
    double gpu_hafnian_double_per_sm = 0;
    double gpu_hafnian_prime_per_sm = 0;
    double gpu_hafnian_complex_slowdown = 0;
    double gpu_hafnian_setup_s = 0;
};

/// The rates in force in this process (compiled in, then $PMCOUNT_RATES's, or a ScopedRates'
/// while one is alive); the file is read on the first call, whose InvalidInput every later call
/// repeats.
const CostRates& rates();

/// While alive, rates() returns these in every thread: a calibration (count/calibrate.cpp)
/// evaluates the model under trial rates. Process-wide, for a caller that counts nothing else
/// meanwhile; nested ones restore the outer one.
class ScopedRates {
public:
    explicit ScopedRates(const CostRates& rates);
    ~ScopedRates();
    ScopedRates(const ScopedRates&) = delete;
    ScopedRates& operator=(const ScopedRates&) = delete;

private:
    CostRates rates_;
    const CostRates* outer_;
};

/// The records of rates-file text; `file` names it in errors. `complete`: every key the model
/// uses must be there (the compiled-in file).
std::vector<CostRate> parse_cost_rates(std::string_view text, const std::string& file,
                                       bool complete);

/// `base` with each of `records` replacing the rate of its key.
CostRates with_records(CostRates base, const std::vector<CostRate>& records);

}  // namespace pmcount::plan
