function __explorer_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __explorer_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __explorer_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __explorer_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __explorer_parse_tokens -S
    set -l unparsed_tokens (__explorer_tokens -pc)
    switch $unparsed_tokens[1]
    case 'explorer'
        __explorer_parse_subcommand 0 'base-url=' 'profile=' 'env=' 'offline' 'stop-on-error' 'color=' 'record=' 'spec=' 'verify=' 'cert=' 'cert-key=' 'c=+' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'repl'
            __explorer_parse_subcommand 0 'base-url=' 'profile=' 'env=' 'offline' 'stop-on-error' 'color=' 'record=' 'spec=' 'verify=' 'cert=' 'cert-key=' 'c=+' 'version' 'h/help'
        case 'run'
            __explorer_parse_subcommand 1 'base-url=' 'profile=' 'env=' 'offline' 'stop-on-error' 'color=' 'record=' 'spec=' 'verify=' 'cert=' 'cert-key=' 'version' 'h/help'
        case 'sandbox'
            __explorer_parse_subcommand 0 'profile=' 'host=' 'port=' 'db=' 'token-ttl=' 'latency=' 'error-rate=' 'cut-body-rate=' 'ws-drop-after=' 'fault-seed=' 'version' 'h/help'
        case 'mock'
            __explorer_parse_subcommand -r 1 'host=' 'port=' 'mode=' 'token-ttl=' 'latency=' 'error-rate=' 'cut-body-rate=' 'ws-drop-after=' 'fault-seed=' 'version' 'h/help'
        case 'replay'
            __explorer_parse_subcommand -r 1 'base-url=' 'env=' 'update' 'color=' 'verify=' 'cert=' 'cert-key=' 'timeout=' 'version' 'h/help'
        case 'test'
            __explorer_parse_subcommand -r 1 'base-url=' 'env=' 'update' 'color=' 'verify=' 'cert=' 'cert-key=' 'timeout=' 'junit=' 'jobs=' 'version' 'h/help'
        case 'profiles'
            __explorer_parse_subcommand 0 'version' 'h/help'
        case 'profile'
            __explorer_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'init'
                __explorer_parse_subcommand 1 'from-spec=' 'base-url=' 'o/output=' 'force' 'version' 'h/help'
            case 'show'
                __explorer_parse_subcommand 1 'version' 'h/help'
            end
        case 'help'
            __explorer_parse_subcommand -r 1 'version'
        end
    end
end

function __explorer_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __explorer_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __explorer_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __explorer_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__explorer_tokens -p)
    if test -z "$(__explorer_tokens -t)"
        set -l index (count (__explorer_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'explorer' -f
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" base-url' -l 'base-url' -d 'Base URL of a backend, such as https://api.example.com. Without it the built-in sandbox starts.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" profile' -l 'profile' -d 'Backend profile: built in (levelup, linku, nova, posture, generic), a profile file\'s name (explorer profiles lists them) or its path. Default: linku for the sandbox, generic for --base-url or --spec.' -rfka '(__explorer_custom_completion ---completion -- --profile (count (__explorer_tokens -pc)) (__explorer_tokens -tC))'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" env' -l 'env' -d 'The profile file\'s environment whose base URL to use (default: its default-environment).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" offline' -l 'offline' -d 'Print each request instead of sending it.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" stop-on-error' -l 'stop-on-error' -d 'In a script, -c lines or piped lines: stop at the first line that fails, as sh -e does (the rest are not run).'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" color' -l 'color' -d 'Colour output; auto, the default, colours a terminal without NO_COLOR.' -rfka 'auto always never'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" record' -l 'record' -d 'Record the session, from the first line, as a transcript in this new file.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" spec' -l 'spec' -d 'An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) for the catalog; its first server is the base URL when --base-url is not given.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" verify' -l 'verify' -d 'Check https servers\' certificates against the system\'s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line\'s --verify is for one.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" cert' -l 'cert' -d 'A client certificate (PEM) for https servers, with its key unless --cert-key names another file.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" cert-key' -l 'cert-key' -d 'The client certificate\'s private key (PEM).' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer"' -s 'c' -d 'Run one line and exit; given again, the lines run in order, as a script\'s do.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer" -eq 1' -fa 'repl' -d 'Open the REPL (the default), or run one line with -c.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer" -eq 1' -fa 'run' -d 'Run the commands of a file, one per line (# starts a comment).'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer" -eq 1' -fa 'sandbox' -d 'Run a backend\'s sandbox alone in the foreground, for an app or another tool.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer" -eq 1' -fa 'mock' -d 'Serve recorded transcripts as a mock backend (HTTP and WebSocket).'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer" -eq 1' -fa 'replay' -d 'Replay transcripts step by step and show a diff for each step that differs.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer" -eq 1' -fa 'test' -d 'Replay every transcript under the given folders (default sessions/) as a test suite.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer" -eq 1' -fa 'profiles' -d 'List the profiles --profile can name: built in, and files in .explorer/profiles/ or $XDG_CONFIG_HOME/explorer/profiles/.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer" -eq 1' -fa 'profile' -d 'Work with profile files (docs/profiles.md).'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" base-url' -l 'base-url' -d 'Base URL of a backend, such as https://api.example.com. Without it the built-in sandbox starts.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" profile' -l 'profile' -d 'Backend profile: built in (levelup, linku, nova, posture, generic), a profile file\'s name (explorer profiles lists them) or its path. Default: linku for the sandbox, generic for --base-url or --spec.' -rfka '(__explorer_custom_completion ---completion repl -- --profile (count (__explorer_tokens -pc)) (__explorer_tokens -tC))'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" env' -l 'env' -d 'The profile file\'s environment whose base URL to use (default: its default-environment).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" offline' -l 'offline' -d 'Print each request instead of sending it.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" stop-on-error' -l 'stop-on-error' -d 'In a script, -c lines or piped lines: stop at the first line that fails, as sh -e does (the rest are not run).'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" color' -l 'color' -d 'Colour output; auto, the default, colours a terminal without NO_COLOR.' -rfka 'auto always never'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" record' -l 'record' -d 'Record the session, from the first line, as a transcript in this new file.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" spec' -l 'spec' -d 'An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) for the catalog; its first server is the base URL when --base-url is not given.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" verify' -l 'verify' -d 'Check https servers\' certificates against the system\'s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line\'s --verify is for one.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" cert' -l 'cert' -d 'A client certificate (PEM) for https servers, with its key unless --cert-key names another file.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" cert-key' -l 'cert-key' -d 'The client certificate\'s private key (PEM).' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl"' -s 'c' -d 'Run one line and exit; given again, the lines run in order, as a script\'s do.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer repl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" base-url' -l 'base-url' -d 'Base URL of a backend, such as https://api.example.com. Without it the built-in sandbox starts.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" profile' -l 'profile' -d 'Backend profile: built in (levelup, linku, nova, posture, generic), a profile file\'s name (explorer profiles lists them) or its path. Default: linku for the sandbox, generic for --base-url or --spec.' -rfka '(__explorer_custom_completion ---completion run -- --profile (count (__explorer_tokens -pc)) (__explorer_tokens -tC))'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" env' -l 'env' -d 'The profile file\'s environment whose base URL to use (default: its default-environment).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" offline' -l 'offline' -d 'Print each request instead of sending it.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" stop-on-error' -l 'stop-on-error' -d 'In a script, -c lines or piped lines: stop at the first line that fails, as sh -e does (the rest are not run).'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" color' -l 'color' -d 'Colour output; auto, the default, colours a terminal without NO_COLOR.' -rfka 'auto always never'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" record' -l 'record' -d 'Record the session, from the first line, as a transcript in this new file.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" spec' -l 'spec' -d 'An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) for the catalog; its first server is the base URL when --base-url is not given.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" verify' -l 'verify' -d 'Check https servers\' certificates against the system\'s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line\'s --verify is for one.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" cert' -l 'cert' -d 'A client certificate (PEM) for https servers, with its key unless --cert-key names another file.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" cert-key' -l 'cert-key' -d 'The client certificate\'s private key (PEM).' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer run" -eq 1' -F
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer run" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" profile' -l 'profile' -d 'Backend to serve: levelup, linku, nova, posture.' -rfka 'levelup linku nova posture'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" host' -l 'host' -d 'Address to listen on: loopback by default; 0.0.0.0 lets other machines (a phone) reach it.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" port' -l 'port' -d 'Port to listen on (0 picks a free one).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" db' -l 'db' -d 'Keep data in this SQLite file (default: in memory).' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" token-ttl' -l 'token-ttl' -d 'Access-token lifetime in seconds (or EXPLORER_SANDBOX_TOKEN_TTL).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" latency' -l 'latency' -d 'Milliseconds added to every HTTP response (or EXPLORER_SANDBOX_LATENCY_MS).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" error-rate' -l 'error-rate' -d 'Share (0-1) of requests answered 500 or 503 (or EXPLORER_SANDBOX_ERROR_RATE).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" cut-body-rate' -l 'cut-body-rate' -d 'Share (0-1) of responses cut mid-body (or EXPLORER_SANDBOX_CUT_BODY_RATE).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" ws-drop-after' -l 'ws-drop-after' -d 'Drop each WebSocket after this many frames; 0 never (or EXPLORER_SANDBOX_WS_DROP_AFTER).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" fault-seed' -l 'fault-seed' -d 'Seed the random draws, for repeatable runs (or EXPLORER_SANDBOX_FAULT_SEED).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer sandbox" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer mock" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'transcript\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" host' -l 'host' -d 'Address to listen on: loopback by default; 0.0.0.0 lets other machines (a phone) reach it.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" port' -l 'port' -d 'Port to listen on (0 picks a free one).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" mode' -l 'mode' -d 'How a request finds its step: match or scenario.' -rfka 'match scenario'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" token-ttl' -l 'token-ttl' -d 'Access-token lifetime in seconds (or EXPLORER_SANDBOX_TOKEN_TTL).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" latency' -l 'latency' -d 'Milliseconds added to every HTTP response (or EXPLORER_SANDBOX_LATENCY_MS).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" error-rate' -l 'error-rate' -d 'Share (0-1) of requests answered 500 or 503 (or EXPLORER_SANDBOX_ERROR_RATE).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" cut-body-rate' -l 'cut-body-rate' -d 'Share (0-1) of responses cut mid-body (or EXPLORER_SANDBOX_CUT_BODY_RATE).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" ws-drop-after' -l 'ws-drop-after' -d 'Drop each WebSocket after this many frames; 0 never (or EXPLORER_SANDBOX_WS_DROP_AFTER).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" fault-seed' -l 'fault-seed' -d 'Seed the random draws, for repeatable runs (or EXPLORER_SANDBOX_FAULT_SEED).' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer mock" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" base-url' -l 'base-url' -d 'Run against this server instead of each transcript\'s own base URL or sandbox.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" env' -l 'env' -d 'Run against this environment of each transcript\'s profile file instead of the one it names.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" update' -l 'update' -d 'Re-bless: give steps that differ new expectations (keeping patterns and comments that still fit) and rewrite the files.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" color' -l 'color' -d 'Colour output; auto, the default, colours a terminal without NO_COLOR.' -rfka 'auto always never'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" verify' -l 'verify' -d 'Check https servers\' certificates against the system\'s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line\'s --verify is for one.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" cert' -l 'cert' -d 'A client certificate (PEM) for https servers, with its key unless --cert-key names another file.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" cert-key' -l 'cert-key' -d 'The client certificate\'s private key (PEM).' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" timeout' -l 'timeout' -d 'Give up on a step\'s answer after this many seconds (30 by default), as a line\'s --timeout does; a line\'s own wins.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer replay" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'transcript\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer replay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" base-url' -l 'base-url' -d 'Run against this server instead of each transcript\'s own base URL or sandbox.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" env' -l 'env' -d 'Run against this environment of each transcript\'s profile file instead of the one it names.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" update' -l 'update' -d 'Re-bless: give steps that differ new expectations (keeping patterns and comments that still fit) and rewrite the files.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" color' -l 'color' -d 'Colour output; auto, the default, colours a terminal without NO_COLOR.' -rfka 'auto always never'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" verify' -l 'verify' -d 'Check https servers\' certificates against the system\'s CAs (yes, the default), a CA file (PEM), or not at all (no); for every request, as a line\'s --verify is for one.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" cert' -l 'cert' -d 'A client certificate (PEM) for https servers, with its key unless --cert-key names another file.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" cert-key' -l 'cert-key' -d 'The client certificate\'s private key (PEM).' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" timeout' -l 'timeout' -d 'Give up on a step\'s answer after this many seconds (30 by default), as a line\'s --timeout does; a line\'s own wins.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" junit' -l 'junit' -d 'Also write the results as JUnit XML to this file.' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" jobs' -l 'jobs' -d 'Replay this many transcripts at once, each against its own sandbox.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer test" -ge 1' -F
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer test" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profiles" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profiles" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer profile" -eq 1' -fa 'init' -d 'Write a starting profile file for a backend of your own, to edit.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer profile" -eq 1' -fa 'show' -d 'Print a profile\'s file: a built-in one, or one found by name or path.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile init" from-spec' -l 'from-spec' -d 'An OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML).' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile init" base-url' -l 'base-url' -d 'A base URL, as an environment named local.' -rfka ''
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile init" o output' -l 'output' -s 'o' -d 'Where to write it (default: .explorer/profiles/NAME.yaml).' -rF
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile init" force' -l 'force' -d 'Replace an existing file.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile init" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile init" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_positional "explorer profile show" -eq 1' -fka '(__explorer_custom_completion ---completion profile show -- positional@0 (count (__explorer_tokens -pc)) (__explorer_tokens -tC))'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile show" version' -l 'version' -d 'Show the version.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer profile show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'explorer' -n '__explorer_should_offer_completions_for_flags_or_options "explorer help" version' -l 'version' -d 'Show the version.'
