# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_calimcp_global_optspecs
    string join \n json color= q/quiet apps= package= service= refs= max-name-len= node= timeout= token= v/verbose offline h/help V/version
end

function __fish_calimcp_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_calimcp_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_calimcp_using_subcommand
    set -l cmd (__fish_calimcp_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c calimcp -n "__fish_calimcp_needs_command" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_needs_command" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_needs_command" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_needs_command" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_needs_command" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_needs_command" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_needs_command" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_needs_command" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_needs_command" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_needs_command" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_needs_command" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_needs_command" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_needs_command" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_needs_command" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "schema" -d 'Print the JSON Schema of a method\'s arguments (or of every method)'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "describe" -d 'Show an app\'s methods as signatures, with their tool names, its events and its guide\'s procedures'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "doc" -d 'Write apps\' references as self-contained web pages: every method with its signature, tool, parameters, schemas and an example, the events, types and state layout. No network, no external fonts or scripts'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "tools" -d 'List the tools generated for apps (local and the node\'s): a table, or with --json exactly the MCP Tool objects `calimcp serve` advertises'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "serve" -d 'Serve the apps\' methods as MCP tools (stdio by default), for AI agents'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "apps" -d 'List the apps: those of the --apps directories and APP paths given, then the node\'s'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "app" -d 'Install, uninstall, upgrade and list the apps of the node'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "blob" -d 'Upload, list, inspect, download and delete the node\'s blobs'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "call" -d 'Call a method on a node, checking every argument first'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "use" -d 'Pin the context calls of an app use on this node, show it, or clear it'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "contexts" -d 'List the contexts of an app on the node (of every app without APP)'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "context" -d 'Create, join, delete and name contexts on the node'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "diff" -d 'Compare two versions of an app: what the new one breaks for callers, agents and state'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "watch" -d 'Print an app\'s events as they happen on the node, decoded with its ABI'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "wait" -d 'Wait until a context is initialized on the node (exit 124 if it is not in time)'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "login" -d 'Log in to the node (embedded auth) and keep the login for later commands'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "logout" -d 'Log out of the node: end the session there, and remove the cached login (of every user, or of --username)'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "auth" -d 'Print the node\'s access token for scripts, or list the cached logins'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "node" -d 'Name nodes, list them, choose the current one'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c calimcp -n "__fish_calimcp_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l output -d 'Return schemas instead of argument schemas (`null` for a unit return)'
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand schema" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand describe" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -s o -l out -d 'Directory to write the pages to (created if missing); `-`: one app\'s page on stdout' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand doc" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l app -d 'Only these apps (repeatable; same as naming them as APP)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l allow -d 'Only tools whose name matches GLOB (`*`, `?`; repeatable)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l deny -d 'Never tools whose name matches GLOB (repeatable; wins over --allow)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l read-only -d 'Only [view] methods'
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand tools" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l app -d 'Only these apps (repeatable; same as naming them as APP)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l allow -d 'Only tools whose name matches GLOB (`*`, `?`; repeatable)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l deny -d 'Never tools whose name matches GLOB (repeatable; wins over --allow)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l http -d 'Serve Streamable HTTP on ADDR (PORT, HOST:PORT or IP:PORT; loopback unless named) instead of stdio' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l allow-host -d 'With --http: also accept requests whose Host header is NAME (repeatable)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l allow-origin -d 'With --http: also let browser pages of ORIGIN call /mcp, CORS preflight answered (https://app.example, http://host:8080, http://host:*; repeatable)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l session-idle -d 'With --http: close a session idle (no request in flight, no stream open) for SECS seconds and reclaim its memory' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l refresh -d 'Re-read the node\'s apps every SECS seconds' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l as -d 'Execute every call as this identity: a public key (base58 or hex) or an identity alias; honoured by merod 0.10.x only' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l toolsets -d 'Tool sets to serve besides the app tools: lifecycle (install, create, join, delete, aliases), blobs (upload_blob, list_blobs, delete_blob) or all; comma-separated' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l install-from -d 'With the lifecycle toolset: install_application may install paths inside DIR' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l log-level -d 'Diagnostics on stderr from this level up' -r -f -a "off\t''
error\t''
warn\t''
info\t''
debug\t''
trace\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l read-only -d 'Only [view] methods'
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand serve" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand apps" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -f -a "install" -d 'Install an app on the node: a local file, an https URL, or PACKAGE@VERSION'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -f -a "uninstall" -d 'Remove an app from the node'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -f -a "upgrade" -d 'Upgrade a context\'s group to a new build, gated by `diff`'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -f -a "list" -d 'List the apps (the same as `calimcp apps`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and not __fish_seen_subcommand_from install uninstall upgrade list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l version -d 'The app\'s version, as the node lists it (a local app\'s own by default)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l metadata -d 'A JSON object stored as the app\'s metadata (name, description, …), or @FILE; a bundle\'s (directory or .mpk) manifest `metadata` by default' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -s y -l yes -d 'Do not ask'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l force -d 'Remove it even while contexts run it'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from uninstall" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l group -d 'The group to upgrade (64 hex), instead of a context\'s' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l to -d 'The new build: a .wasm, .mpk or bundle directory, an http(s) URL, or an application id (or PACKAGE@VERSION) the node has' -r -F
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l version -d 'The version the node lists the new build with (a bundle\'s own by default)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l fail-on -d 'Refuse when a finding is at or above this level' -r -f -a "breaking\t'Breaking findings fail'
warning\t'Breaking and warning findings fail'
any\t'Any finding fails, info included'
none\t'Never fail (report only)'"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l format -d 'How the findings are printed [--json means json: the whole answer, findings inside]' -r -f -a "text\t'Grouped by level, one line per finding, then a summary'
json\t'The JSON document described in docs/reference/diff.md'
markdown\t'A table for a pull-request comment'
github\t'GitHub Actions workflow annotations (::error, ::warning, ::notice)'"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l config -d 'Diff policy file [default: ./calimcp-diff.json when it exists]' -r -F
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l force -d 'Upgrade even when findings reach --fail-on (said on stderr)'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l dry-run -d 'Print the findings and what would be done; change nothing'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -s y -l yes -d 'Do not ask'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from upgrade" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from help" -f -a "install" -d 'Install an app on the node: a local file, an https URL, or PACKAGE@VERSION'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Remove an app from the node'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from help" -f -a "upgrade" -d 'Upgrade a context\'s group to a new build, gated by `diff`'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the apps (the same as `calimcp apps`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand app; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -f -a "upload" -d 'Upload a file as a blob; prints its id'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -f -a "list" -d 'List the node\'s blobs (id and size)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -f -a "info" -d 'Show a blob\'s size, SHA-256, type, and the apps whose module it is'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -f -a "download" -d 'Download a blob to a file (or stdout)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -f -a "delete" -d 'Delete a blob from the node'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and not __fish_seen_subcommand_from upload list info download delete help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l context -d 'Announce the blob to this context\'s peers (an id or an alias)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from upload" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from info" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -s o -l output -d 'Where to write it (`-`, the default: stdout, which must not be a terminal)' -r -F
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from download" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l force -d 'Delete it even when an installed app\'s module is that blob'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from help" -f -a "upload" -d 'Upload a file as a blob; prints its id'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the node\'s blobs (id and size)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from help" -f -a "info" -d 'Show a blob\'s size, SHA-256, type, and the apps whose module it is'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from help" -f -a "download" -d 'Download a blob to a file (or stdout)'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete a blob from the node'
complete -c calimcp -n "__fish_calimcp_using_subcommand blob; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l args -d 'The whole argument object: JSON, @FILE, or - for stdin' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -s c -l context -d 'The context: an id (64 hex or base58) or an alias' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l as -d 'Execute as this identity: a public key (base58 or hex) or an identity alias; honoured by merod 0.10.x only' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l wait-event -d 'After the call, wait for the app\'s event NAME in the call\'s context and print it too' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l wait-timeout -d 'How long --wait-event waits after the call, in seconds (default 30); then exit 124' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l retry -d 'Retry up to N times on an error the node marks retryable (a [mut] call only when nothing ran)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l until -d 'Repeat a [view] call until its result equals VALUE (JSON; a bare word is a string)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l until-path -d 'Repeat a [view] call until the value at PATH (/json/pointer or dotted.path) equals VALUE' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l every -d 'With --until: seconds between tries (default 1)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l within -d 'With --until: give up after SECS (default 60), exit 124' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -s h -l help -d 'Print help; with TOOL, the method\'s parameters'
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l dry-run -d 'Print the URL and the exact request body instead of sending the call'
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l no-input -d 'Never prompt for missing parameters'
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand call" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -s c -l context -d 'The context to pin: an id (64 hex or base58) or an alias' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l clear -d 'Remove the pin'
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand use" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand contexts" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -f -a "create" -d 'Create a context of an installed app, its init arguments checked first'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -f -a "invite" -d 'Write an invitation for another node into a context\'s namespace'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -f -a "join" -d 'Join a context on this node with an invitation from `context invite`'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -f -a "delete" -d 'Delete a context from this node'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -f -a "list" -d 'List the contexts (the same as `calimcp contexts`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -f -a "alias" -d 'Context aliases on this node (as meroctl\'s `context alias`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and not __fish_seen_subcommand_from create invite join delete list alias help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l name -d 'A name for the context (shown in the namespace\'s listing)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l alias -d 'Set this alias for the new context on this node' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l namespace -d 'Create it in this namespace (64 hex) instead of a new one' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l args -d 'The whole init argument object: JSON, @FILE, or - for stdin' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l no-input -d 'Never prompt for missing init arguments'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -s o -l output -d 'Write it to FILE instead of stdout' -r -F
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from invite" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l alias -d 'Set this alias for the context on this node' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l within -d 'The longest wait, in seconds (default 180)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from join" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -f -a "add" -d 'Name a context on this node'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -f -a "remove" -d 'Remove an alias (the context stays)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -f -a "list" -d 'List the context aliases of this node'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from alias" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a context of an installed app, its init arguments checked first'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "invite" -d 'Write an invitation for another node into a context\'s namespace'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "join" -d 'Join a context on this node with an invitation from `context invite`'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete a context from this node'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the contexts (the same as `calimcp contexts`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "alias" -d 'Context aliases on this node (as meroctl\'s `context alias`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand context; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l fail-on -d 'Exit 1 when a finding is at or above this level' -r -f -a "breaking\t'Breaking findings fail'
warning\t'Breaking and warning findings fail'
any\t'Any finding fails, info included'
none\t'Never fail (report only)'"
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l format -d 'Output format [--json means json]' -r -f -a "text\t'Grouped by level, one line per finding, then a summary'
json\t'The JSON document described in docs/reference/diff.md'
markdown\t'A table for a pull-request comment'
github\t'GitHub Actions workflow annotations (::error, ::warning, ::notice)'"
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l config -d 'Policy file: rule levels, ignored findings (each with a reason), the version-bump check [default: ./calimcp-diff.json when it exists]' -r -F
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand diff" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l group -d 'Also watch a group or namespace (its id, 64 hex): its membership and migration events (merod 0.11.0-rc.18 and later; repeatable)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -s c -l context -d 'A context to watch: an id (base58 or 64 hex) or an alias (repeatable)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l event -d 'Only events whose name matches (`*` and `?` globs; repeatable)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l count -d 'Exit 0 after N matching events' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l until -d 'Exit 0 after the first event called NAME (printed)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l stop-after -d 'Stop the watch after SECS seconds: exit 124 if --count or --until was not met (without them, if no event came), else 0 [default: run until stopped]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l exec -d 'Run CMD (no shell: words and quotes only) for each event: its JSON line on stdin, CALIMCP_EVENT, CALIMCP_CONTEXT and CALIMCP_APP set' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l reconnect-for -d 'When the event stream drops, keep trying to reopen it for SECS seconds (backing off up to 30 s between tries), then stop with exit 4' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l all -d 'Also show the node\'s own events (sync status, app version changes, …)'
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand watch" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l within -d 'Give up after SECS (default 60), exit 124' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l every -d 'Seconds between checks (default 1)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand wait" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -s u -l username -d 'The user [default: CALIMERO_USERNAME, else asked on the terminal]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l password-stdin -d 'Read the password from stdin (its first line)'
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand login" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -s u -l username -d 'Only this user\'s login (as `login --username`; `--user` is accepted too)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand logout" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -f -a "token" -d 'Print the access token of the node\'s login (refreshed when it has expired) and nothing else; with --json, {"token": …}'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -f -a "status" -d 'List the cached logins: node, its names, user (no request, no token shown)'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and not __fish_seen_subcommand_from token status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from token" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "token" -d 'Print the access token of the node\'s login (refreshed when it has expired) and nothing else; with --json, {"token": …}'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'List the cached logins: node, its names, user (no request, no token shown)'
complete -c calimcp -n "__fish_calimcp_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -f -a "add" -d 'Name a node\'s URL (1–64 letters, digits, `.`, `_`, `-`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -f -a "list" -d 'List the named nodes; `*` marks the current one'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -f -a "ls" -d 'List the named nodes; `*` marks the current one'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -f -a "use" -d 'Make a named node the current one (the node when none is given)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -f -a "remove" -d 'Forget a name (its cached login stays: `calimcp logout` removes it)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -f -a "rm" -d 'Forget a name (its cached login stays: `calimcp logout` removes it)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -f -a "import" -d 'Add the remote nodes of meroctl\'s node list (names and URLs only, never its tokens); its active node becomes the current one when there is none'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and not __fish_seen_subcommand_from add list ls use remove rm import help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l force -d 'Replace the URL of a name that exists'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from ls" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l clear -d 'No current node: back to CALIMERO_NODE_URL, else the node found (see --node), else merod\'s default'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from use" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from rm" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l force -d 'Replace the URL of names that exist'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from help" -f -a "add" -d 'Name a node\'s URL (1–64 letters, digits, `.`, `_`, `-`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the named nodes; `*` marks the current one'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from help" -f -a "use" -d 'Make a named node the current one (the node when none is given)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Forget a name (its cached login stays: `calimcp logout` removes it)'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from help" -f -a "import" -d 'Add the remote nodes of meroctl\'s node list (names and URLs only, never its tokens); its active node becomes the current one when there is none'
complete -c calimcp -n "__fish_calimcp_using_subcommand node; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l color -d 'When to colour the output [NO_COLOR and a non-terminal mean never]' -r -f -a "auto\t''
always\t''
never\t''"
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l apps -d 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l package -d 'The package of a bare manifest or module given as APP (default: its file name)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l service -d 'Narrow a multi-service app to one service' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l refs -d 'How named types appear in schemas: expanded in place, or once under $defs' -r -f -a "inline\t'Expand named types in place (recursion capped at depth 8)'
defs\t'Every named type once under $defs; exact recursion'"
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l max-name-len -d 'Longest tool name; longer ones are shortened with a hash' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l node -l api -d 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app\'s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l timeout -d 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l token -d 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)' -r
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l json -d 'Machine-readable output; errors become one JSON line on stderr'
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -s q -l quiet -d 'Hide warnings'
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -s v -l verbose -d 'Print each request to the node and its response on stderr (secrets masked)'
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -l offline -d 'Never contact the node; use local apps only'
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c calimcp -n "__fish_calimcp_using_subcommand completions" -s V -l version -d 'Print version'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "schema" -d 'Print the JSON Schema of a method\'s arguments (or of every method)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "describe" -d 'Show an app\'s methods as signatures, with their tool names, its events and its guide\'s procedures'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "doc" -d 'Write apps\' references as self-contained web pages: every method with its signature, tool, parameters, schemas and an example, the events, types and state layout. No network, no external fonts or scripts'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "tools" -d 'List the tools generated for apps (local and the node\'s): a table, or with --json exactly the MCP Tool objects `calimcp serve` advertises'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "serve" -d 'Serve the apps\' methods as MCP tools (stdio by default), for AI agents'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "apps" -d 'List the apps: those of the --apps directories and APP paths given, then the node\'s'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "app" -d 'Install, uninstall, upgrade and list the apps of the node'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "blob" -d 'Upload, list, inspect, download and delete the node\'s blobs'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "call" -d 'Call a method on a node, checking every argument first'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "use" -d 'Pin the context calls of an app use on this node, show it, or clear it'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "contexts" -d 'List the contexts of an app on the node (of every app without APP)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "context" -d 'Create, join, delete and name contexts on the node'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "diff" -d 'Compare two versions of an app: what the new one breaks for callers, agents and state'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "watch" -d 'Print an app\'s events as they happen on the node, decoded with its ABI'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "wait" -d 'Wait until a context is initialized on the node (exit 124 if it is not in time)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "login" -d 'Log in to the node (embedded auth) and keep the login for later commands'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "logout" -d 'Log out of the node: end the session there, and remove the cached login (of every user, or of --username)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "auth" -d 'Print the node\'s access token for scripts, or list the cached logins'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "node" -d 'Name nodes, list them, choose the current one'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and not __fish_seen_subcommand_from schema describe doc tools serve apps app blob call use contexts context diff watch wait login logout auth node completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from app" -f -a "install" -d 'Install an app on the node: a local file, an https URL, or PACKAGE@VERSION'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from app" -f -a "uninstall" -d 'Remove an app from the node'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from app" -f -a "upgrade" -d 'Upgrade a context\'s group to a new build, gated by `diff`'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from app" -f -a "list" -d 'List the apps (the same as `calimcp apps`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from blob" -f -a "upload" -d 'Upload a file as a blob; prints its id'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from blob" -f -a "list" -d 'List the node\'s blobs (id and size)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from blob" -f -a "info" -d 'Show a blob\'s size, SHA-256, type, and the apps whose module it is'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from blob" -f -a "download" -d 'Download a blob to a file (or stdout)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from blob" -f -a "delete" -d 'Delete a blob from the node'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "create" -d 'Create a context of an installed app, its init arguments checked first'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "invite" -d 'Write an invitation for another node into a context\'s namespace'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "join" -d 'Join a context on this node with an invitation from `context invite`'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "delete" -d 'Delete a context from this node'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "list" -d 'List the contexts (the same as `calimcp contexts`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from context" -f -a "alias" -d 'Context aliases on this node (as meroctl\'s `context alias`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "token" -d 'Print the access token of the node\'s login (refreshed when it has expired) and nothing else; with --json, {"token": …}'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'List the cached logins: node, its names, user (no request, no token shown)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from node" -f -a "add" -d 'Name a node\'s URL (1–64 letters, digits, `.`, `_`, `-`)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from node" -f -a "list" -d 'List the named nodes; `*` marks the current one'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from node" -f -a "use" -d 'Make a named node the current one (the node when none is given)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from node" -f -a "remove" -d 'Forget a name (its cached login stays: `calimcp logout` removes it)'
complete -c calimcp -n "__fish_calimcp_using_subcommand help; and __fish_seen_subcommand_from node" -f -a "import" -d 'Add the remote nodes of meroctl\'s node list (names and URLs only, never its tokens); its active node becomes the current one when there is none'
