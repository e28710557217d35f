// Entry of the language server (dist/server.js, bin/cuda-bank-lens-server.js): `--stdio` for any editor,
// `--node-ipc` for the VS Code client; `--socket=PORT` and `--pipe=NAME` also work (vscode-languageserver).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { version } from '../../package.json';
import { startServer } from './server';

const USAGE = `cuda-bank-lens-server ${version}: language server for CUDA shared-memory bank conflicts

usage: cuda-bank-lens-server --stdio         talk LSP over stdin/stdout (Neovim, Helix, Emacs, ...)
       cuda-bank-lens-server --node-ipc      talk over Node IPC (the VS Code extension)
       cuda-bank-lens-server --socket=PORT   talk over a TCP socket
       cuda-bank-lens-server --version | --help
`;

function main(argv: string[]): void {
  if (argv.includes('--version') || argv.includes('-v')) {
    process.stdout.write(`${version}\n`);
    return;
  }
  const transport = argv.some((a) => a === '--stdio' || a === '--node-ipc' || /^--(socket|pipe)(=|$)/.test(a));
  if (argv.includes('--help') || argv.includes('-h') || !transport) {
    (transport || argv.includes('--help') || argv.includes('-h') ? process.stdout : process.stderr).write(USAGE);
    if (!argv.includes('--help') && !argv.includes('-h')) process.exitCode = 2;
    return;
  }
  const connection = createConnection(ProposedFeatures.all);
  startServer(connection, { name: 'cuda-bank-lens', version });
  connection.listen();
}

main(process.argv.slice(2));
