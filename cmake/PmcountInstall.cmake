# Installs the library, public headers and a relocatable CMake package:
#   find_package(pmcount) → target pmcount::pmcount
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

install(TARGETS pmcount pmcount_cuda
    EXPORT pmcountTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/pmcount
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/include/pmcount/version.hpp
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pmcount)

set(PMCOUNT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pmcount)
install(EXPORT pmcountTargets NAMESPACE pmcount:: DESTINATION ${PMCOUNT_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pmcountConfig.cmake.in
    ${PROJECT_BINARY_DIR}/pmcountConfig.cmake
    INSTALL_DESTINATION ${PMCOUNT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pmcountConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pmcountConfig.cmake
              ${PROJECT_BINARY_DIR}/pmcountConfigVersion.cmake
        DESTINATION ${PMCOUNT_CMAKE_DIR})
