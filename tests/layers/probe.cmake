# Shows that the build refuses an upward include: configures throw-away projects
# (tests/layers/probe/) that compile one file as a module of pmcount, including a header it may
# use (must build) or one of a module above it (must fail, the header not found).
# Usage: cmake -DROOT=<pmcount source> -DWORK=<scratch folder> -P probe.cmake
function(probe name module header expect_build)
    set(build ${WORK}/${name})
    file(REMOVE_RECURSE ${build})
    execute_process(
        COMMAND ${CMAKE_COMMAND} -S ${ROOT}/tests/layers/probe -B ${build}
                -DPMCOUNT_ROOT=${ROOT} -DPROBE_MODULE=${module} -DPROBE_HEADER=${header}
        RESULT_VARIABLE configured OUTPUT_VARIABLE log ERROR_VARIABLE log)
    if(NOT configured EQUAL 0)
        message(FATAL_ERROR "probe ${name}: the throw-away configure failed:\n${log}")
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} --build ${build}
        RESULT_VARIABLE built OUTPUT_VARIABLE log ERROR_VARIABLE log)
    if(expect_build AND NOT built EQUAL 0)
        message(FATAL_ERROR "probe ${name}: module ${module} could not include ${header}:\n${log}")
    endif()
    if(NOT expect_build)
        if(built EQUAL 0)
            message(FATAL_ERROR "probe ${name}: module ${module} included ${header}, a header "
                                "of a module above it, and the build accepted it")
        endif()
        string(REGEX MATCH "${header}('|\"|)?:? (No such file|file not found)" refused "${log}")
        if(NOT refused)
            message(FATAL_ERROR "probe ${name}: the build failed, but not for want of ${header}:\n"
                                "${log}")
        endif()
    endif()
    message(STATUS "probe ${name}: ${module} including ${header}: as expected")
endfunction()

probe(allowed exact numeric/primes.hpp TRUE)
probe(allowed_public approx pmcount/io.hpp TRUE)
probe(upward exact plan/plan.hpp FALSE)
probe(upward_below_core core numeric/primes.hpp FALSE)
probe(upward_public exact pmcount/count.hpp FALSE)
