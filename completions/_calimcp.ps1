
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'calimcp' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'calimcp'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'calimcp' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of a method''s arguments (or of every method)')
            [CompletionResult]::new('describe', 'describe', [CompletionResultType]::ParameterValue, 'Show an app''s methods as signatures, with their tool names, its events and its guide''s procedures')
            [CompletionResult]::new('doc', 'doc', [CompletionResultType]::ParameterValue, 'Write apps'' references as self-contained web pages: every method with its signature, tool, parameters, schemas and an example, the events, types and state layout. No network, no external fonts or scripts')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'List the tools generated for apps (local and the node''s): a table, or with --json exactly the MCP Tool objects `calimcp serve` advertises')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the apps'' methods as MCP tools (stdio by default), for AI agents')
            [CompletionResult]::new('apps', 'apps', [CompletionResultType]::ParameterValue, 'List the apps: those of the --apps directories and APP paths given, then the node''s')
            [CompletionResult]::new('app', 'app', [CompletionResultType]::ParameterValue, 'Install, uninstall, upgrade and list the apps of the node')
            [CompletionResult]::new('blob', 'blob', [CompletionResultType]::ParameterValue, 'Upload, list, inspect, download and delete the node''s blobs')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Call a method on a node, checking every argument first')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Pin the context calls of an app use on this node, show it, or clear it')
            [CompletionResult]::new('contexts', 'contexts', [CompletionResultType]::ParameterValue, 'List the contexts of an app on the node (of every app without APP)')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Create, join, delete and name contexts on the node')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two versions of an app: what the new one breaks for callers, agents and state')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Print an app''s events as they happen on the node, decoded with its ABI')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until a context is initialized on the node (exit 124 if it is not in time)')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Log in to the node (embedded auth) and keep the login for later commands')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Log out of the node: end the session there, and remove the cached login (of every user, or of --username)')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Print the node''s access token for scripts, or list the cached logins')
            [CompletionResult]::new('node', 'node', [CompletionResultType]::ParameterValue, 'Name nodes, list them, choose the current one')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;schema' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Return schemas instead of argument schemas (`null` for a unit return)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;describe' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;doc' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Directory to write the pages to (created if missing); `-`: one app''s page on stdout')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Directory to write the pages to (created if missing); `-`: one app''s page on stdout')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;tools' {
            [CompletionResult]::new('--app', '--app', [CompletionResultType]::ParameterName, 'Only these apps (repeatable; same as naming them as APP)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Only tools whose name matches GLOB (`*`, `?`; repeatable)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Never tools whose name matches GLOB (repeatable; wins over --allow)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Only [view] methods')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;serve' {
            [CompletionResult]::new('--app', '--app', [CompletionResultType]::ParameterName, 'Only these apps (repeatable; same as naming them as APP)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Only tools whose name matches GLOB (`*`, `?`; repeatable)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Never tools whose name matches GLOB (repeatable; wins over --allow)')
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve Streamable HTTP on ADDR (PORT, HOST:PORT or IP:PORT; loopback unless named) instead of stdio')
            [CompletionResult]::new('--allow-host', '--allow-host', [CompletionResultType]::ParameterName, 'With --http: also accept requests whose Host header is NAME (repeatable)')
            [CompletionResult]::new('--allow-origin', '--allow-origin', [CompletionResultType]::ParameterName, 'With --http: also let browser pages of ORIGIN call /mcp, CORS preflight answered (https://app.example, http://host:8080, http://host:*; repeatable)')
            [CompletionResult]::new('--session-idle', '--session-idle', [CompletionResultType]::ParameterName, 'With --http: close a session idle (no request in flight, no stream open) for SECS seconds and reclaim its memory')
            [CompletionResult]::new('--refresh', '--refresh', [CompletionResultType]::ParameterName, 'Re-read the node''s apps every SECS seconds')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Execute every call as this identity: a public key (base58 or hex) or an identity alias; honoured by merod 0.10.x only')
            [CompletionResult]::new('--toolsets', '--toolsets', [CompletionResultType]::ParameterName, 'Tool sets to serve besides the app tools: lifecycle (install, create, join, delete, aliases), blobs (upload_blob, list_blobs, delete_blob) or all; comma-separated')
            [CompletionResult]::new('--install-from', '--install-from', [CompletionResultType]::ParameterName, 'With the lifecycle toolset: install_application may install paths inside DIR')
            [CompletionResult]::new('--log-level', '--log-level', [CompletionResultType]::ParameterName, 'Diagnostics on stderr from this level up')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Only [view] methods')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;apps' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;app' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install an app on the node: a local file, an https URL, or PACKAGE@VERSION')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove an app from the node')
            [CompletionResult]::new('upgrade', 'upgrade', [CompletionResultType]::ParameterValue, 'Upgrade a context''s group to a new build, gated by `diff`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the apps (the same as `calimcp apps`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;app;install' {
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'The app''s version, as the node lists it (a local app''s own by default)')
            [CompletionResult]::new('--metadata', '--metadata', [CompletionResultType]::ParameterName, 'A JSON object stored as the app''s metadata (name, description, …), or @FILE; a bundle''s (directory or .mpk) manifest `metadata` by default')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'calimcp;app;uninstall' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Remove it even while contexts run it')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;app;upgrade' {
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'The group to upgrade (64 hex), instead of a context''s')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The new build: a .wasm, .mpk or bundle directory, an http(s) URL, or an application id (or PACKAGE@VERSION) the node has')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'The version the node lists the new build with (a bundle''s own by default)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Refuse when a finding is at or above this level')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How the findings are printed [--json means json: the whole answer, findings inside]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Diff policy file [default: ./calimcp-diff.json when it exists]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Upgrade even when findings reach --fail-on (said on stderr)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the findings and what would be done; change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'calimcp;app;list' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;app;help' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install an app on the node: a local file, an https URL, or PACKAGE@VERSION')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove an app from the node')
            [CompletionResult]::new('upgrade', 'upgrade', [CompletionResultType]::ParameterValue, 'Upgrade a context''s group to a new build, gated by `diff`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the apps (the same as `calimcp apps`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;app;help;install' {
            break
        }
        'calimcp;app;help;uninstall' {
            break
        }
        'calimcp;app;help;upgrade' {
            break
        }
        'calimcp;app;help;list' {
            break
        }
        'calimcp;app;help;help' {
            break
        }
        'calimcp;blob' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('upload', 'upload', [CompletionResultType]::ParameterValue, 'Upload a file as a blob; prints its id')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the node''s blobs (id and size)')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show a blob''s size, SHA-256, type, and the apps whose module it is')
            [CompletionResult]::new('download', 'download', [CompletionResultType]::ParameterValue, 'Download a blob to a file (or stdout)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a blob from the node')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;blob;upload' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Announce the blob to this context''s peers (an id or an alias)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;blob;list' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;blob;info' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;blob;download' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write it (`-`, the default: stdout, which must not be a terminal)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write it (`-`, the default: stdout, which must not be a terminal)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;blob;delete' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Delete it even when an installed app''s module is that blob')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;blob;help' {
            [CompletionResult]::new('upload', 'upload', [CompletionResultType]::ParameterValue, 'Upload a file as a blob; prints its id')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the node''s blobs (id and size)')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show a blob''s size, SHA-256, type, and the apps whose module it is')
            [CompletionResult]::new('download', 'download', [CompletionResultType]::ParameterValue, 'Download a blob to a file (or stdout)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a blob from the node')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;blob;help;upload' {
            break
        }
        'calimcp;blob;help;list' {
            break
        }
        'calimcp;blob;help;info' {
            break
        }
        'calimcp;blob;help;download' {
            break
        }
        'calimcp;blob;help;delete' {
            break
        }
        'calimcp;blob;help;help' {
            break
        }
        'calimcp;call' {
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'The whole argument object: JSON, @FILE, or - for stdin')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The context: an id (64 hex or base58) or an alias')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The context: an id (64 hex or base58) or an alias')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Execute as this identity: a public key (base58 or hex) or an identity alias; honoured by merod 0.10.x only')
            [CompletionResult]::new('--wait-event', '--wait-event', [CompletionResultType]::ParameterName, 'After the call, wait for the app''s event NAME in the call''s context and print it too')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'How long --wait-event waits after the call, in seconds (default 30); then exit 124')
            [CompletionResult]::new('--retry', '--retry', [CompletionResultType]::ParameterName, 'Retry up to N times on an error the node marks retryable (a [mut] call only when nothing ran)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Repeat a [view] call until its result equals VALUE (JSON; a bare word is a string)')
            [CompletionResult]::new('--until-path', '--until-path', [CompletionResultType]::ParameterName, 'Repeat a [view] call until the value at PATH (/json/pointer or dotted.path) equals VALUE')
            [CompletionResult]::new('--every', '--every', [CompletionResultType]::ParameterName, 'With --until: seconds between tries (default 1)')
            [CompletionResult]::new('--within', '--within', [CompletionResultType]::ParameterName, 'With --until: give up after SECS (default 60), exit 124')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help; with TOOL, the method''s parameters')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help; with TOOL, the method''s parameters')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the URL and the exact request body instead of sending the call')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt for missing parameters')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;use' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The context to pin: an id (64 hex or base58) or an alias')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The context to pin: an id (64 hex or base58) or an alias')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--clear', '--clear', [CompletionResultType]::ParameterName, 'Remove the pin')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;contexts' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;context' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a context of an installed app, its init arguments checked first')
            [CompletionResult]::new('invite', 'invite', [CompletionResultType]::ParameterValue, 'Write an invitation for another node into a context''s namespace')
            [CompletionResult]::new('join', 'join', [CompletionResultType]::ParameterValue, 'Join a context on this node with an invitation from `context invite`')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a context from this node')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the contexts (the same as `calimcp contexts`)')
            [CompletionResult]::new('alias', 'alias', [CompletionResultType]::ParameterValue, 'Context aliases on this node (as meroctl''s `context alias`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;context;create' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'A name for the context (shown in the namespace''s listing)')
            [CompletionResult]::new('--alias', '--alias', [CompletionResultType]::ParameterName, 'Set this alias for the new context on this node')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Create it in this namespace (64 hex) instead of a new one')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'The whole init argument object: JSON, @FILE, or - for stdin')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt for missing init arguments')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;context;invite' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write it to FILE instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write it to FILE instead of stdout')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;context;join' {
            [CompletionResult]::new('--alias', '--alias', [CompletionResultType]::ParameterName, 'Set this alias for the context on this node')
            [CompletionResult]::new('--within', '--within', [CompletionResultType]::ParameterName, 'The longest wait, in seconds (default 180)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;context;delete' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;context;list' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;context;alias' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Name a context on this node')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an alias (the context stays)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the context aliases of this node')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;context;alias;add' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;context;alias;remove' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;context;alias;list' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;context;alias;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Name a context on this node')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an alias (the context stays)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the context aliases of this node')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;context;alias;help;add' {
            break
        }
        'calimcp;context;alias;help;remove' {
            break
        }
        'calimcp;context;alias;help;list' {
            break
        }
        'calimcp;context;alias;help;help' {
            break
        }
        'calimcp;context;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a context of an installed app, its init arguments checked first')
            [CompletionResult]::new('invite', 'invite', [CompletionResultType]::ParameterValue, 'Write an invitation for another node into a context''s namespace')
            [CompletionResult]::new('join', 'join', [CompletionResultType]::ParameterValue, 'Join a context on this node with an invitation from `context invite`')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a context from this node')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the contexts (the same as `calimcp contexts`)')
            [CompletionResult]::new('alias', 'alias', [CompletionResultType]::ParameterValue, 'Context aliases on this node (as meroctl''s `context alias`)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;context;help;create' {
            break
        }
        'calimcp;context;help;invite' {
            break
        }
        'calimcp;context;help;join' {
            break
        }
        'calimcp;context;help;delete' {
            break
        }
        'calimcp;context;help;list' {
            break
        }
        'calimcp;context;help;alias' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Name a context on this node')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an alias (the context stays)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the context aliases of this node')
            break
        }
        'calimcp;context;help;alias;add' {
            break
        }
        'calimcp;context;help;alias;remove' {
            break
        }
        'calimcp;context;help;alias;list' {
            break
        }
        'calimcp;context;help;help' {
            break
        }
        'calimcp;diff' {
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding is at or above this level')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [--json means json]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Policy file: rule levels, ignored findings (each with a reason), the version-bump check [default: ./calimcp-diff.json when it exists]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;watch' {
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Also watch a group or namespace (its id, 64 hex): its membership and migration events (merod 0.11.0-rc.18 and later; repeatable)')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'A context to watch: an id (base58 or 64 hex) or an alias (repeatable)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'A context to watch: an id (base58 or 64 hex) or an alias (repeatable)')
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Only events whose name matches (`*` and `?` globs; repeatable)')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Exit 0 after N matching events')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Exit 0 after the first event called NAME (printed)')
            [CompletionResult]::new('--stop-after', '--stop-after', [CompletionResultType]::ParameterName, 'Stop the watch after SECS seconds: exit 124 if --count or --until was not met (without them, if no event came), else 0 [default: run until stopped]')
            [CompletionResult]::new('--exec', '--exec', [CompletionResultType]::ParameterName, 'Run CMD (no shell: words and quotes only) for each event: its JSON line on stdin, CALIMCP_EVENT, CALIMCP_CONTEXT and CALIMCP_APP set')
            [CompletionResult]::new('--reconnect-for', '--reconnect-for', [CompletionResultType]::ParameterName, 'When the event stream drops, keep trying to reopen it for SECS seconds (backing off up to 30 s between tries), then stop with exit 4')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Also show the node''s own events (sync status, app version changes, …)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;wait' {
            [CompletionResult]::new('--within', '--within', [CompletionResultType]::ParameterName, 'Give up after SECS (default 60), exit 124')
            [CompletionResult]::new('--every', '--every', [CompletionResultType]::ParameterName, 'Seconds between checks (default 1)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;login' {
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'The user [default: CALIMERO_USERNAME, else asked on the terminal]')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'The user [default: CALIMERO_USERNAME, else asked on the terminal]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--password-stdin', '--password-stdin', [CompletionResultType]::ParameterName, 'Read the password from stdin (its first line)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;logout' {
            [CompletionResult]::new('-u', '-u', [CompletionResultType]::ParameterName, 'Only this user''s login (as `login --username`; `--user` is accepted too)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Only this user''s login (as `login --username`; `--user` is accepted too)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;auth' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print the access token of the node''s login (refreshed when it has expired) and nothing else; with --json, {"token": …}')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List the cached logins: node, its names, user (no request, no token shown)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;auth;token' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;auth;status' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;auth;help' {
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print the access token of the node''s login (refreshed when it has expired) and nothing else; with --json, {"token": …}')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List the cached logins: node, its names, user (no request, no token shown)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;auth;help;token' {
            break
        }
        'calimcp;auth;help;status' {
            break
        }
        'calimcp;auth;help;help' {
            break
        }
        'calimcp;node' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Name a node''s URL (1–64 letters, digits, `.`, `_`, `-`)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the named nodes; `*` marks the current one')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the named nodes; `*` marks the current one')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a named node the current one (the node when none is given)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Forget a name (its cached login stays: `calimcp logout` removes it)')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Forget a name (its cached login stays: `calimcp logout` removes it)')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Add the remote nodes of meroctl''s node list (names and URLs only, never its tokens); its active node becomes the current one when there is none')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;node;add' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace the URL of a name that exists')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;node;list' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;node;ls' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;node;use' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--clear', '--clear', [CompletionResultType]::ParameterName, 'No current node: back to CALIMERO_NODE_URL, else the node found (see --node), else merod''s default')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;node;remove' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;node;rm' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;node;import' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace the URL of names that exist')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;node;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Name a node''s URL (1–64 letters, digits, `.`, `_`, `-`)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the named nodes; `*` marks the current one')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a named node the current one (the node when none is given)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Forget a name (its cached login stays: `calimcp logout` removes it)')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Add the remote nodes of meroctl''s node list (names and URLs only, never its tokens); its active node becomes the current one when there is none')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;node;help;add' {
            break
        }
        'calimcp;node;help;list' {
            break
        }
        'calimcp;node;help;use' {
            break
        }
        'calimcp;node;help;remove' {
            break
        }
        'calimcp;node;help;import' {
            break
        }
        'calimcp;node;help;help' {
            break
        }
        'calimcp;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--node', '--node', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--api', '--api', [CompletionResultType]::ParameterName, 'The node: a name from `calimcp node list`, or its URL (a base path is kept) [default: the current node (`calimcp node use`), else the desktop app''s hand-off file, else the one node under ~/.calimero (or $CALIMERO_HOME; among several, `default`), else http://127.0.0.1:2528]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on every request to the node, in seconds [default: 300 for a call (execute), 30 for the rest, 10 to connect]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Access token sent as `Authorization: Bearer` (the variable is safer: flags show in `ps`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print each request to the node and its response on stderr (secrets masked)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never contact the node; use local apps only')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;help' {
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of a method''s arguments (or of every method)')
            [CompletionResult]::new('describe', 'describe', [CompletionResultType]::ParameterValue, 'Show an app''s methods as signatures, with their tool names, its events and its guide''s procedures')
            [CompletionResult]::new('doc', 'doc', [CompletionResultType]::ParameterValue, 'Write apps'' references as self-contained web pages: every method with its signature, tool, parameters, schemas and an example, the events, types and state layout. No network, no external fonts or scripts')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'List the tools generated for apps (local and the node''s): a table, or with --json exactly the MCP Tool objects `calimcp serve` advertises')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the apps'' methods as MCP tools (stdio by default), for AI agents')
            [CompletionResult]::new('apps', 'apps', [CompletionResultType]::ParameterValue, 'List the apps: those of the --apps directories and APP paths given, then the node''s')
            [CompletionResult]::new('app', 'app', [CompletionResultType]::ParameterValue, 'Install, uninstall, upgrade and list the apps of the node')
            [CompletionResult]::new('blob', 'blob', [CompletionResultType]::ParameterValue, 'Upload, list, inspect, download and delete the node''s blobs')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Call a method on a node, checking every argument first')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Pin the context calls of an app use on this node, show it, or clear it')
            [CompletionResult]::new('contexts', 'contexts', [CompletionResultType]::ParameterValue, 'List the contexts of an app on the node (of every app without APP)')
            [CompletionResult]::new('context', 'context', [CompletionResultType]::ParameterValue, 'Create, join, delete and name contexts on the node')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two versions of an app: what the new one breaks for callers, agents and state')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Print an app''s events as they happen on the node, decoded with its ABI')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait until a context is initialized on the node (exit 124 if it is not in time)')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Log in to the node (embedded auth) and keep the login for later commands')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Log out of the node: end the session there, and remove the cached login (of every user, or of --username)')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Print the node''s access token for scripts, or list the cached logins')
            [CompletionResult]::new('node', 'node', [CompletionResultType]::ParameterValue, 'Name nodes, list them, choose the current one')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'calimcp;help;schema' {
            break
        }
        'calimcp;help;describe' {
            break
        }
        'calimcp;help;doc' {
            break
        }
        'calimcp;help;tools' {
            break
        }
        'calimcp;help;serve' {
            break
        }
        'calimcp;help;apps' {
            break
        }
        'calimcp;help;app' {
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Install an app on the node: a local file, an https URL, or PACKAGE@VERSION')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Remove an app from the node')
            [CompletionResult]::new('upgrade', 'upgrade', [CompletionResultType]::ParameterValue, 'Upgrade a context''s group to a new build, gated by `diff`')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the apps (the same as `calimcp apps`)')
            break
        }
        'calimcp;help;app;install' {
            break
        }
        'calimcp;help;app;uninstall' {
            break
        }
        'calimcp;help;app;upgrade' {
            break
        }
        'calimcp;help;app;list' {
            break
        }
        'calimcp;help;blob' {
            [CompletionResult]::new('upload', 'upload', [CompletionResultType]::ParameterValue, 'Upload a file as a blob; prints its id')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the node''s blobs (id and size)')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show a blob''s size, SHA-256, type, and the apps whose module it is')
            [CompletionResult]::new('download', 'download', [CompletionResultType]::ParameterValue, 'Download a blob to a file (or stdout)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a blob from the node')
            break
        }
        'calimcp;help;blob;upload' {
            break
        }
        'calimcp;help;blob;list' {
            break
        }
        'calimcp;help;blob;info' {
            break
        }
        'calimcp;help;blob;download' {
            break
        }
        'calimcp;help;blob;delete' {
            break
        }
        'calimcp;help;call' {
            break
        }
        'calimcp;help;use' {
            break
        }
        'calimcp;help;contexts' {
            break
        }
        'calimcp;help;context' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a context of an installed app, its init arguments checked first')
            [CompletionResult]::new('invite', 'invite', [CompletionResultType]::ParameterValue, 'Write an invitation for another node into a context''s namespace')
            [CompletionResult]::new('join', 'join', [CompletionResultType]::ParameterValue, 'Join a context on this node with an invitation from `context invite`')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a context from this node')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the contexts (the same as `calimcp contexts`)')
            [CompletionResult]::new('alias', 'alias', [CompletionResultType]::ParameterValue, 'Context aliases on this node (as meroctl''s `context alias`)')
            break
        }
        'calimcp;help;context;create' {
            break
        }
        'calimcp;help;context;invite' {
            break
        }
        'calimcp;help;context;join' {
            break
        }
        'calimcp;help;context;delete' {
            break
        }
        'calimcp;help;context;list' {
            break
        }
        'calimcp;help;context;alias' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Name a context on this node')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove an alias (the context stays)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the context aliases of this node')
            break
        }
        'calimcp;help;context;alias;add' {
            break
        }
        'calimcp;help;context;alias;remove' {
            break
        }
        'calimcp;help;context;alias;list' {
            break
        }
        'calimcp;help;diff' {
            break
        }
        'calimcp;help;watch' {
            break
        }
        'calimcp;help;wait' {
            break
        }
        'calimcp;help;login' {
            break
        }
        'calimcp;help;logout' {
            break
        }
        'calimcp;help;auth' {
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print the access token of the node''s login (refreshed when it has expired) and nothing else; with --json, {"token": …}')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'List the cached logins: node, its names, user (no request, no token shown)')
            break
        }
        'calimcp;help;auth;token' {
            break
        }
        'calimcp;help;auth;status' {
            break
        }
        'calimcp;help;node' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Name a node''s URL (1–64 letters, digits, `.`, `_`, `-`)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the named nodes; `*` marks the current one')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a named node the current one (the node when none is given)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Forget a name (its cached login stays: `calimcp logout` removes it)')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Add the remote nodes of meroctl''s node list (names and URLs only, never its tokens); its active node becomes the current one when there is none')
            break
        }
        'calimcp;help;node;add' {
            break
        }
        'calimcp;help;node;list' {
            break
        }
        'calimcp;help;node;use' {
            break
        }
        'calimcp;help;node;remove' {
            break
        }
        'calimcp;help;node;import' {
            break
        }
        'calimcp;help;completions' {
            break
        }
        'calimcp;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
