# libFuzzer instrumentation for the fuzz build (RUDPSCOPE_FUZZ=ON with clang).
#
# Included from tests/fuzz/CMakeLists.txt, i.e. after analysis/ defined its
# libraries, so it needs no edit of the root CMakeLists.txt: it patches the
# existing library targets instead of setting global flags.
#   - the core libraries get -fsanitize=fuzzer-no-link,address,undefined
#     (coverage feedback + ASan/UBSan inside the code under test);
#   - their INTERFACE link options pull the ASan/UBSan runtime into every
#     executable that links them (CLI, unit tests), which then links cleanly.
# The fuzz targets themselves add -fsanitize=fuzzer (libFuzzer's main).
include_guard(GLOBAL)

option(RUDPSCOPE_FUZZ "Build the libFuzzer targets (needs clang)" OFF)

set(RUDPSCOPE_FUZZ_ACTIVE OFF)
if(RUDPSCOPE_FUZZ)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(RUDPSCOPE_FUZZ_ACTIVE ON)
  else()
    message(WARNING "RUDPSCOPE_FUZZ=ON needs clang (CC=clang CXX=clang++); "
                    "building only the fuzz_replay drivers")
  endif()
endif()

# Flags for code under test. -fno-sanitize-recover makes UBSan findings fatal,
# so libFuzzer records them as crashes instead of scrolling past them.
set(RUDPSCOPE_FUZZ_CFLAGS
    -fsanitize=fuzzer-no-link,address,undefined
    -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer
    -gline-tables-only)
set(RUDPSCOPE_FUZZ_LINK_SAN -fsanitize=address,undefined)

function(rudpscope_fuzz_instrument)
  if(NOT RUDPSCOPE_FUZZ_ACTIVE)
    return()
  endif()
  foreach(lib rudp_core rudp_capture rudp_decode rudp_lua rudp_flow rudp_store
              rudp_session rudp_analyzers)
    if(TARGET ${lib})
      target_compile_options(${lib} PRIVATE ${RUDPSCOPE_FUZZ_CFLAGS})
      target_link_options(${lib} INTERFACE ${RUDPSCOPE_FUZZ_LINK_SAN})
    endif()
  endforeach()
endfunction()
