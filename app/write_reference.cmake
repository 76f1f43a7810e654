# Writes the man page and the shell completions into OUT, each printed by
# the built binary BIN from the declarations --help prints.
# cmake -DBIN=... -DOUT=... -P write_reference.cmake
file(MAKE_DIRECTORY ${OUT})
foreach(job "--help-man;gpuimg.1" "--completion;bash;gpuimg.bash" "--completion;zsh;_gpuimg"
            "--completion;fish;gpuimg.fish")
  list(POP_BACK job file)
  execute_process(COMMAND ${BIN} ${job} OUTPUT_FILE ${OUT}/${file} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${BIN} ${job} failed (${rc})")
  endif()
endforeach()
