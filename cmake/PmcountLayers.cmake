# The library's modules (lib/<module>/) and what each may include, in one direction:
#
#   core < numeric, graph < matrix < io, structure, reduce, backend, run < generate, exact
#        < approx < plan < count (the public entry points)
#
# and the CUDA target (cuda/, or its stub lib/backend/cuda_stub.cpp), which implements the
# device interfaces that backend/, exact/ and approx/ declare. Every module is compiled against a
# view of the source tree (<build>/layers/<module>/) that holds only the modules it may use and
# the public headers they implement, so an upward include is a "file not found" error at build
# time. tests/layers/check_includes.py checks the same graph over every file, headers included,
# and tests/layers/ shows that a wrong include fails the build (docs/architecture.md).
#
# pmcount_layer(<module> [USES <modules>...] [HEADERS <public headers>...]) declares a module:
# the modules below it that it includes directly (their own uses come with them), and the
# headers of include/pmcount/ that it implements. The vocabulary headers below (the graph,
# matrix, option and result types, errors) are seen by every module.
get_filename_component(PMCOUNT_LAYERS_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(PMCOUNT_VOCABULARY_HEADERS array_view.hpp big_int.hpp build_info.hpp decomposition.hpp error.hpp
    graph.hpp matrix.hpp options.hpp result.hpp types.hpp)

function(pmcount_layer name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "USES;HEADERS")
    set(closure ${name})
    foreach(used IN LISTS arg_USES)
        get_property(known GLOBAL PROPERTY PMCOUNT_LAYER_${used}_CLOSURE SET)
        if(NOT known)
            message(FATAL_ERROR "pmcount_layer(${name}): '${used}' must be declared before the "
                                "modules that use it")
        endif()
        get_property(below GLOBAL PROPERTY PMCOUNT_LAYER_${used}_CLOSURE)
        list(APPEND closure ${below})
    endforeach()
    list(REMOVE_DUPLICATES closure)
    set_property(GLOBAL PROPERTY PMCOUNT_LAYER_${name}_CLOSURE ${closure})
    set_property(GLOBAL PROPERTY PMCOUNT_LAYER_${name}_USES ${arg_USES})
    set_property(GLOBAL PROPERTY PMCOUNT_LAYER_${name}_HEADERS ${arg_HEADERS})
    set_property(GLOBAL APPEND PROPERTY PMCOUNT_LAYERS ${name})
endfunction()

pmcount_layer(core)
pmcount_layer(numeric USES core)
pmcount_layer(graph USES core)
pmcount_layer(matrix USES core graph)
pmcount_layer(io USES core graph matrix HEADERS io.hpp)
pmcount_layer(structure USES core graph matrix HEADERS structure.hpp)
pmcount_layer(reduce USES core numeric graph matrix)
pmcount_layer(backend USES core)
pmcount_layer(run USES core numeric graph matrix HEADERS distributed.hpp)
pmcount_layer(generate USES io HEADERS generate.hpp)
pmcount_layer(exact USES numeric structure reduce backend run)
pmcount_layer(approx USES numeric io structure reduce backend run HEADERS approx.hpp)
pmcount_layer(plan USES exact io HEADERS cost_rates.hpp)
pmcount_layer(count USES plan approx generate HEADERS calibrate.hpp count.hpp matchings.hpp pmcount.hpp
    interop)
pmcount_layer(cuda USES exact approx)

# The include directory of <module>'s view: one symbolic link per module it may include and, in
# pmcount/, per public header it may include. Rebuilt at every configure.
function(pmcount_layer_view name out)
    get_property(closure GLOBAL PROPERTY PMCOUNT_LAYER_${name}_CLOSURE)
    set(view ${PROJECT_BINARY_DIR}/layers/${name})
    file(REMOVE_RECURSE ${view})
    file(MAKE_DIRECTORY ${view}/pmcount)
    set(headers ${PMCOUNT_VOCABULARY_HEADERS})
    foreach(module IN LISTS closure)
        if(IS_DIRECTORY ${PMCOUNT_LAYERS_ROOT}/lib/${module})
            file(CREATE_LINK ${PMCOUNT_LAYERS_ROOT}/lib/${module} ${view}/${module} SYMBOLIC)
        endif()
        get_property(owned GLOBAL PROPERTY PMCOUNT_LAYER_${module}_HEADERS)
        list(APPEND headers ${owned})
    endforeach()
    foreach(header IN LISTS headers)
        file(CREATE_LINK ${PMCOUNT_LAYERS_ROOT}/include/pmcount/${header}
             ${view}/pmcount/${header} SYMBOLIC)
    endforeach()
    file(CREATE_LINK ${PROJECT_BINARY_DIR}/include/pmcount/version.hpp
         ${view}/pmcount/version.hpp SYMBOLIC)
    set(${out} ${view} PARENT_SCOPE)
endfunction()

# The module graph as text (module: uses; headers), for tests/layers/check_includes.py.
function(pmcount_write_layer_graph file)
    get_property(layers GLOBAL PROPERTY PMCOUNT_LAYERS)
    set(text "")
    foreach(name IN LISTS layers)
        get_property(uses GLOBAL PROPERTY PMCOUNT_LAYER_${name}_USES)
        get_property(headers GLOBAL PROPERTY PMCOUNT_LAYER_${name}_HEADERS)
        list(JOIN uses " " uses)
        list(JOIN headers " " headers)
        string(APPEND text "${name}: ${uses}; ${headers}\n")
    endforeach()
    list(JOIN PMCOUNT_VOCABULARY_HEADERS " " vocabulary)
    string(APPEND text "*: ; ${vocabulary} version.hpp\n")
    file(WRITE ${file} "${text}")
endfunction()
