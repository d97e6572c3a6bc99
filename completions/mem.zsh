
#compdef mem

_mem_completion() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" _MEM_COMPLETE=complete_zsh mem)
}

compdef _mem_completion mem

