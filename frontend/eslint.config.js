import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// One-way imports (bulletproof-react): shared → features → app.
const noUpwardImports = (from, forbidden) => ({
  files: [`src/${from}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map((f) => ({ group: [`@/${f}/*`, `@/${f}`], message: `src/${from} must not import from src/${f}.` })) },
    ],
  },
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked],
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
    },
  },
  noUpwardImports('shared', ['features', 'app']),
  noUpwardImports('features', ['app']),
  {
    // Features are independent of each other: share through src/shared.
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@/features/*', '@/app/*', '@/app'], message: 'Features must not import other features or the app; move shared code to src/shared.' }] },
      ],
    },
  },
  {
    files: ['e2e/**/*.{ts,mjs}', '*.config.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
);
