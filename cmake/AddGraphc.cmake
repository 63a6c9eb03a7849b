# AddGraphc.cmake: thin wrappers over MLIR's CMake helpers, so every graphc
# library links libMLIR.so (not the static archives) and every tool is built the
# same way.

# add_graphc_library(name SRCS... [DEPENDS targets...] [LINK_LIBS libs...])
# A static library of graphc's own code that links libMLIR.so / libLLVM.so.
function(add_graphc_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK_LIBS" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  add_dependencies(${name} mlir-headers)
  target_link_libraries(${name} PUBLIC ${ARG_LINK_LIBS} MLIR LLVM)
endfunction()

# add_graphc_dialect_doc(td out_name dialect): generate the dialect reference
# from ODS into the build tree (target graphc-doc). `scripts/gen-docs.sh` copies
# it to docs/dialects/, and a test fails when the committed copy is stale.
function(add_graphc_dialect_doc td out_name dialect)
  set(LLVM_TARGET_DEFINITIONS ${td})
  tablegen(MLIR ${out_name}.md -gen-dialect-doc -dialect=${dialect})
  add_public_tablegen_target(${out_name}DocGen)
  add_dependencies(graphc-doc ${out_name}DocGen)
endfunction()

# add_graphc_pass_doc(td out_name): the same for a Passes.td file: its pass
# reference (-gen-pass-doc) becomes docs/passes/<out_name>.md.
function(add_graphc_pass_doc td out_name)
  set(LLVM_TARGET_DEFINITIONS ${td})
  tablegen(MLIR ${out_name}.md -gen-pass-doc)
  add_public_tablegen_target(${out_name}PassDocGen)
  add_dependencies(graphc-doc ${out_name}PassDocGen)
endfunction()

# add_graphc_tool(name SRCS... [LINK_LIBS libs...])
function(add_graphc_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} MLIR LLVM)
  llvm_update_compile_flags(${name})
endfunction()
