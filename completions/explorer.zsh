#compdef explorer

__explorer_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__explorer_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __explorer_complete "${completions[@]:0:-1}"
    fi
}

__explorer_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_explorer() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '--base-url[Base URL of a backend, such as https\://api.example.com. Without it the built-in sandbox starts.]:url:'
        '--profile[Backend profile\: built in (levelup, linku, nova, posture, generic), a profile file'\''s name (explorer profiles lists them) or its path. Default\: linku for the sandbox, generic for --base-url or --spec.]:name|file:{__explorer_custom_complete ---completion -- --profile "${current_word_index}" "$(__explorer_cursor_index_in_current_word)"}'
        '--env[The profile file'\''s environment whose base URL to use (default\: its default-environment).]:name:'
        '--offline[Print each request instead of sending it.]'
        '--stop-on-error[In a script, -c lines or piped lines\: stop at the first line that fails, as sh -e does (the rest are not run).]'
        '--color[Colour output; auto, the default, colours a terminal without NO_COLOR.]:mode:{__explorer_complete "${___color[@]}"}'
        '--record[Record the session, from the first line, as a transcript in this new file.]:file:_files'
        '--spec[An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) for the catalog; its first server is the base URL when --base-url is not given.]:file:_files'
        '--verify[Check https servers'\'' certificates against the system'\''s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line'\''s --verify is for one.]:yes|no|file:_files'
        '--cert[A client certificate (PEM) for https servers, with its key unless --cert-key names another file.]:file:_files'
        '--cert-key[The client certificate'\''s private key (PEM).]:file:_files'
        '*-c[Run one line and exit; given again, the lines run in order, as a script'\''s do.]:line:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'repl:Open the REPL (the default), or run one line with -c.'
            'run:Run the commands of a file, one per line (# starts a comment).'
            'sandbox:Run a backend'\''s sandbox alone in the foreground, for an app or another tool.'
            'mock:Serve recorded transcripts as a mock backend (HTTP and WebSocket).'
            'replay:Replay transcripts step by step and show a diff for each step that differs.'
            'test:Replay every transcript under the given folders (default sessions/) as a test suite.'
            'profiles:List the profiles --profile can name: built in, and files in .explorer/profiles/ or $XDG_CONFIG_HOME/explorer/profiles/.'
            'profile:Work with profile files (docs/profiles.md).'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        repl|run|sandbox|mock|replay|test|profiles|profile|help)
            "_explorer_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_explorer_repl() {
    local -i ret=1
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '--base-url[Base URL of a backend, such as https\://api.example.com. Without it the built-in sandbox starts.]:url:'
        '--profile[Backend profile\: built in (levelup, linku, nova, posture, generic), a profile file'\''s name (explorer profiles lists them) or its path. Default\: linku for the sandbox, generic for --base-url or --spec.]:name|file:{__explorer_custom_complete ---completion repl -- --profile "${current_word_index}" "$(__explorer_cursor_index_in_current_word)"}'
        '--env[The profile file'\''s environment whose base URL to use (default\: its default-environment).]:name:'
        '--offline[Print each request instead of sending it.]'
        '--stop-on-error[In a script, -c lines or piped lines\: stop at the first line that fails, as sh -e does (the rest are not run).]'
        '--color[Colour output; auto, the default, colours a terminal without NO_COLOR.]:mode:{__explorer_complete "${___color[@]}"}'
        '--record[Record the session, from the first line, as a transcript in this new file.]:file:_files'
        '--spec[An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) for the catalog; its first server is the base URL when --base-url is not given.]:file:_files'
        '--verify[Check https servers'\'' certificates against the system'\''s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line'\''s --verify is for one.]:yes|no|file:_files'
        '--cert[A client certificate (PEM) for https servers, with its key unless --cert-key names another file.]:file:_files'
        '--cert-key[The client certificate'\''s private key (PEM).]:file:_files'
        '*-c[Run one line and exit; given again, the lines run in order, as a script'\''s do.]:line:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_explorer_run() {
    local -i ret=1
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '--base-url[Base URL of a backend, such as https\://api.example.com. Without it the built-in sandbox starts.]:url:'
        '--profile[Backend profile\: built in (levelup, linku, nova, posture, generic), a profile file'\''s name (explorer profiles lists them) or its path. Default\: linku for the sandbox, generic for --base-url or --spec.]:name|file:{__explorer_custom_complete ---completion run -- --profile "${current_word_index}" "$(__explorer_cursor_index_in_current_word)"}'
        '--env[The profile file'\''s environment whose base URL to use (default\: its default-environment).]:name:'
        '--offline[Print each request instead of sending it.]'
        '--stop-on-error[In a script, -c lines or piped lines\: stop at the first line that fails, as sh -e does (the rest are not run).]'
        '--color[Colour output; auto, the default, colours a terminal without NO_COLOR.]:mode:{__explorer_complete "${___color[@]}"}'
        '--record[Record the session, from the first line, as a transcript in this new file.]:file:_files'
        '--spec[An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) for the catalog; its first server is the base URL when --base-url is not given.]:file:_files'
        '--verify[Check https servers'\'' certificates against the system'\''s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line'\''s --verify is for one.]:yes|no|file:_files'
        '--cert[A client certificate (PEM) for https servers, with its key unless --cert-key names another file.]:file:_files'
        '--cert-key[The client certificate'\''s private key (PEM).]:file:_files'
        ':file:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_explorer_sandbox() {
    local -i ret=1
    local -ar ___profile=('levelup' 'linku' 'nova' 'posture')
    local -ar arg_specs=(
        '--profile[Backend to serve\: levelup, linku, nova, posture.]:name:{__explorer_complete "${___profile[@]}"}'
        '--host[Address to listen on\: loopback by default; 0.0.0.0 lets other machines (a phone) reach it.]:host:'
        '--port[Port to listen on (0 picks a free one).]:port:'
        '--db[Keep data in this SQLite file (default\: in memory).]:path:_files'
        '--token-ttl[Access-token lifetime in seconds (or EXPLORER_SANDBOX_TOKEN_TTL).]:seconds:'
        '--latency[Milliseconds added to every HTTP response (or EXPLORER_SANDBOX_LATENCY_MS).]:ms:'
        '--error-rate[Share (0-1) of requests answered 500 or 503 (or EXPLORER_SANDBOX_ERROR_RATE).]:share:'
        '--cut-body-rate[Share (0-1) of responses cut mid-body (or EXPLORER_SANDBOX_CUT_BODY_RATE).]:share:'
        '--ws-drop-after[Drop each WebSocket after this many frames; 0 never (or EXPLORER_SANDBOX_WS_DROP_AFTER).]:frames:'
        '--fault-seed[Seed the random draws, for repeatable runs (or EXPLORER_SANDBOX_FAULT_SEED).]:n:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_explorer_mock() {
    local -i ret=1
    local -ar ___mode=('match' 'scenario')
    local -ar arg_specs=(
        '*:file|dir:_files -g '\''*.transcript'\'''
        '--host[Address to listen on\: loopback by default; 0.0.0.0 lets other machines (a phone) reach it.]:host:'
        '--port[Port to listen on (0 picks a free one).]:port:'
        '--mode[How a request finds its step\: match or scenario.]:mode:{__explorer_complete "${___mode[@]}"}'
        '--token-ttl[Access-token lifetime in seconds (or EXPLORER_SANDBOX_TOKEN_TTL).]:seconds:'
        '--latency[Milliseconds added to every HTTP response (or EXPLORER_SANDBOX_LATENCY_MS).]:ms:'
        '--error-rate[Share (0-1) of requests answered 500 or 503 (or EXPLORER_SANDBOX_ERROR_RATE).]:share:'
        '--cut-body-rate[Share (0-1) of responses cut mid-body (or EXPLORER_SANDBOX_CUT_BODY_RATE).]:share:'
        '--ws-drop-after[Drop each WebSocket after this many frames; 0 never (or EXPLORER_SANDBOX_WS_DROP_AFTER).]:frames:'
        '--fault-seed[Seed the random draws, for repeatable runs (or EXPLORER_SANDBOX_FAULT_SEED).]:n:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_explorer_replay() {
    local -i ret=1
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '--base-url[Run against this server instead of each transcript'\''s own base URL or sandbox.]:url:'
        '--env[Run against this environment of each transcript'\''s profile file instead of the one it names.]:name:'
        '--update[Re-bless\: give steps that differ new expectations (keeping patterns and comments that still fit) and rewrite the files.]'
        '--color[Colour output; auto, the default, colours a terminal without NO_COLOR.]:mode:{__explorer_complete "${___color[@]}"}'
        '--verify[Check https servers'\'' certificates against the system'\''s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line'\''s --verify is for one.]:yes|no|file:_files'
        '--cert[A client certificate (PEM) for https servers, with its key unless --cert-key names another file.]:file:_files'
        '--cert-key[The client certificate'\''s private key (PEM).]:file:_files'
        '--timeout[Give up on a step'\''s answer after this many seconds (30 by default), as a line'\''s --timeout does; a line'\''s own wins.]:seconds:'
        '*:file:_files -g '\''*.transcript'\'''
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_explorer_test() {
    local -i ret=1
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '--base-url[Run against this server instead of each transcript'\''s own base URL or sandbox.]:url:'
        '--env[Run against this environment of each transcript'\''s profile file instead of the one it names.]:name:'
        '--update[Re-bless\: give steps that differ new expectations (keeping patterns and comments that still fit) and rewrite the files.]'
        '--color[Colour output; auto, the default, colours a terminal without NO_COLOR.]:mode:{__explorer_complete "${___color[@]}"}'
        '--verify[Check https servers'\'' certificates against the system'\''s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line'\''s --verify is for one.]:yes|no|file:_files'
        '--cert[A client certificate (PEM) for https servers, with its key unless --cert-key names another file.]:file:_files'
        '--cert-key[The client certificate'\''s private key (PEM).]:file:_files'
        '--timeout[Give up on a step'\''s answer after this many seconds (30 by default), as a line'\''s --timeout does; a line'\''s own wins.]:seconds:'
        '--junit[Also write the results as JUnit XML to this file.]:file:_files'
        '--jobs[Replay this many transcripts at once, each against its own sandbox.]:n:'
        '*:path:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_explorer_profiles() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_explorer_profile() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'init:Write a starting profile file for a backend of your own, to edit.'
            'show:Print a profile'\''s file: a built-in one, or one found by name or path.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        init|show)
            "_explorer_profile_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_explorer_profile_init() {
    local -i ret=1
    local -ar arg_specs=(
        ':name:'
        '--from-spec[An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML).]:file:_files'
        '--base-url[A base URL, as an environment named local.]:url:'
        '(--output -o)'{--output,-o}'[Where to write it (default\: .explorer/profiles/NAME.yaml).]:file:_files'
        '--force[Replace an existing file.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_explorer_profile_show() {
    local -i ret=1
    local -ar arg_specs=(
        ':name|file:{__explorer_custom_complete ---completion profile show -- positional@0 "${current_word_index}" "$(__explorer_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_explorer_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _explorer ]]; then
    _explorer "${@}"
else
    compdef _explorer explorer
fi
