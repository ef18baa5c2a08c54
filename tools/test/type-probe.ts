/**
 * Type-checking a probe module in memory (tools/test/*.test.ts that show a mistake is a type error):
 * `source` compiled as a module in tools/test/ with tsconfig.json's options, against the real sources.
 */
import { resolve } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../contract/paths.ts';

/** The diagnostics of `source`, type-checked as `tools/test/<name>.ts` (a file that need not exist), flattened to one line each. */
export function diagnosticsOf(source: string, name = '__type-probe__'): string[] {
  const configFile = resolve(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configFile);
  const probe = resolve(ROOT, `tools/test/${name}.ts`);
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) => (resolve(file) === probe ? ts.createSourceFile(file, source, language) : getSourceFile(file, language, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => resolve(file) === probe || fileExists(file);
  const program = ts.createProgram({ rootNames: [probe], options: { ...options, noEmit: true }, host });
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(probe)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}
