# The data pages (Connections, Statistics, Packets) and the packet-fields view, for
# app/CMakeLists.txt to include(): a static library the shell and the tests
# link.
# The Statistics page embeds the chart widgets (HistogramChart, CdfChart).
if(NOT TARGET rudp_app_widgets)
  message(STATUS "rudp_app_pages_data not built: it needs rudp_app_widgets (app/widgets)")
  return()
endif()
set(_pages_data_dir ${CMAKE_CURRENT_LIST_DIR})
add_library(rudp_app_pages_data STATIC
  ${_pages_data_dir}/connections_page.cpp
  ${_pages_data_dir}/display_filter_bar.cpp
  ${_pages_data_dir}/packet_details_view.cpp
  ${_pages_data_dir}/packet_fields_view.cpp
  ${_pages_data_dir}/packets_page.cpp
  ${_pages_data_dir}/statistics_charts.cpp
  ${_pages_data_dir}/statistics_page.cpp
  # The Packets page's display filter and conversation items run as jobs; the
  # shell's jobs share the thread helper.
  ${_pages_data_dir}/../jobs/conversation_job.cpp
  ${_pages_data_dir}/../jobs/filter_job.cpp
  ${_pages_data_dir}/../jobs/worker_thread.cpp)
target_include_directories(rudp_app_pages_data PUBLIC ${_pages_data_dir}/..)
find_package(Qt6 6.4 REQUIRED COMPONENTS Concurrent)
target_link_libraries(rudp_app_pages_data PUBLIC Qt6::Widgets Qt6::Svg Qt6::Concurrent rudp_app_models rudp_app_widgets)
set_target_properties(rudp_app_pages_data PROPERTIES AUTOMOC ON)
