
use builtin;
use str;

set edit:completion:arg-completer[calimcp] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'calimcp'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'calimcp'= {
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand schema 'Print the JSON Schema of a method''s arguments (or of every method)'
            cand describe 'Show an app''s methods as signatures, with their tool names'
            cand tools 'List the tools generated for apps: a table, or with --json exactly the MCP Tool objects `calimcp serve` advertises for the same apps and options'
            cand serve 'Serve the apps'' methods as MCP tools (stdio by default), for AI agents'
            cand apps 'List the apps of the --apps directories (and any APP paths given)'
            cand call 'Call a method on a node, checking every argument first'
            cand use 'Pin the context calls of an app use on this node, show it, or clear it'
            cand diff 'Compare two versions of an app: what the new one breaks for callers, agents and state'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'calimcp;schema'= {
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand --output 'Return schemas instead of argument schemas (`null` for a unit return)'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'calimcp;describe'= {
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'calimcp;tools'= {
            cand --app 'Only these apps (repeatable; same as naming them as APP)'
            cand --allow 'Only tools whose name matches GLOB (`*`, `?`; repeatable)'
            cand --deny 'Never tools whose name matches GLOB (repeatable; wins over --allow)'
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand --read-only 'Only [view] methods'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'calimcp;serve'= {
            cand --app 'Only these apps (repeatable; same as naming them as APP)'
            cand --allow 'Only tools whose name matches GLOB (`*`, `?`; repeatable)'
            cand --deny 'Never tools whose name matches GLOB (repeatable; wins over --allow)'
            cand --http 'Serve Streamable HTTP on ADDR (PORT, HOST:PORT or IP:PORT; loopback unless named) instead of stdio'
            cand --allow-host 'With --http: also accept requests whose Host header is NAME (repeatable)'
            cand --allow-origin 'With --http: also accept browser requests from ORIGIN, e.g. https://app.example:443 (repeatable)'
            cand --refresh 'Re-read the node''s apps every SECS seconds'
            cand --log-level 'Diagnostics on stderr from this level up'
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand --read-only 'Only [view] methods'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'calimcp;apps'= {
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'calimcp;call'= {
            cand --args 'The whole argument object: JSON, @FILE, or - for stdin'
            cand -c 'The context: an id (64 hex or base58) or an alias'
            cand --context 'The context: an id (64 hex or base58) or an alias'
            cand --as 'Execute as this identity: a public key (base58 or hex) or an identity alias; honoured by merod 0.10.x only'
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand -h 'Print help; with TOOL, the method''s parameters'
            cand --help 'Print help; with TOOL, the method''s parameters'
            cand --dry-run 'Print the URL and the exact request body instead of sending the call'
            cand --no-input 'Never prompt for missing parameters'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'calimcp;use'= {
            cand -c 'The context to pin: an id (64 hex or base58) or an alias'
            cand --context 'The context to pin: an id (64 hex or base58) or an alias'
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand --clear 'Remove the pin'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'calimcp;diff'= {
            cand --fail-on 'Exit 1 when a finding is at or above this level'
            cand --format 'Output format [--json means json]'
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'calimcp;completions'= {
            cand --color 'When to colour the output [NO_COLOR and a non-terminal mean never]'
            cand --apps 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)'
            cand --package 'The package of a bare manifest or module given as APP (default: its file name)'
            cand --service 'Narrow a multi-service app to one service'
            cand --refs 'How named types appear in schemas: expanded in place, or once under $defs'
            cand --max-name-len 'Longest tool name; longer ones are shortened with a hash'
            cand --node 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --api 'The node''s URL; a base path is kept [default: http://127.0.0.1:2528]'
            cand --timeout 'Bound on every request to the node, in seconds'
            cand --token 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)'
            cand --json 'Machine-readable output; errors become one JSON line on stderr'
            cand -q 'Hide warnings'
            cand --quiet 'Hide warnings'
            cand -v 'Print each request to the node and its response on stderr (secrets masked)'
            cand --verbose 'Print each request to the node and its response on stderr (secrets masked)'
            cand --offline 'Never contact the node; use local apps only'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'calimcp;help'= {
            cand schema 'Print the JSON Schema of a method''s arguments (or of every method)'
            cand describe 'Show an app''s methods as signatures, with their tool names'
            cand tools 'List the tools generated for apps: a table, or with --json exactly the MCP Tool objects `calimcp serve` advertises for the same apps and options'
            cand serve 'Serve the apps'' methods as MCP tools (stdio by default), for AI agents'
            cand apps 'List the apps of the --apps directories (and any APP paths given)'
            cand call 'Call a method on a node, checking every argument first'
            cand use 'Pin the context calls of an app use on this node, show it, or clear it'
            cand diff 'Compare two versions of an app: what the new one breaks for callers, agents and state'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'calimcp;help;schema'= {
        }
        &'calimcp;help;describe'= {
        }
        &'calimcp;help;tools'= {
        }
        &'calimcp;help;serve'= {
        }
        &'calimcp;help;apps'= {
        }
        &'calimcp;help;call'= {
        }
        &'calimcp;help;use'= {
        }
        &'calimcp;help;diff'= {
        }
        &'calimcp;help;completions'= {
        }
        &'calimcp;help;help'= {
        }
    ]
    $completions[$command]
}
