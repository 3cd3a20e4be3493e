
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of a method''s arguments (or of every method)')
            [CompletionResult]::new('describe', 'describe', [CompletionResultType]::ParameterValue, 'Show an app''s methods as signatures, with their tool names')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'List the tools generated for apps: a table, or with --json exactly the MCP Tool objects `calimcp serve` advertises for the same apps and options')
            [CompletionResult]::new('apps', 'apps', [CompletionResultType]::ParameterValue, 'List the apps of the --apps directories (and any APP paths given)')
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
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Return schemas instead of argument schemas (`null` for a unit return)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
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
            [CompletionResult]::new('--read-only', '--read-only', [CompletionResultType]::ParameterName, 'Only [view] methods')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
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
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output [NO_COLOR and a non-terminal mean never]')
            [CompletionResult]::new('--apps', '--apps', [CompletionResultType]::ParameterName, 'A directory of apps: bundle directories, .mpk files, .json manifests, .wasm modules (repeatable)')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'The package of a bare manifest or module given as APP (default: its file name)')
            [CompletionResult]::new('--service', '--service', [CompletionResultType]::ParameterName, 'Narrow a multi-service app to one service')
            [CompletionResult]::new('--refs', '--refs', [CompletionResultType]::ParameterName, 'How named types appear in schemas: expanded in place, or once under $defs')
            [CompletionResult]::new('--max-name-len', '--max-name-len', [CompletionResultType]::ParameterName, 'Longest tool name; longer ones are shortened with a hash')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Machine-readable output; errors become one JSON line on stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Hide warnings')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'calimcp;help' {
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of a method''s arguments (or of every method)')
            [CompletionResult]::new('describe', 'describe', [CompletionResultType]::ParameterValue, 'Show an app''s methods as signatures, with their tool names')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'List the tools generated for apps: a table, or with --json exactly the MCP Tool objects `calimcp serve` advertises for the same apps and options')
            [CompletionResult]::new('apps', 'apps', [CompletionResultType]::ParameterValue, 'List the apps of the --apps directories (and any APP paths given)')
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
        'calimcp;help;tools' {
            break
        }
        'calimcp;help;apps' {
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
