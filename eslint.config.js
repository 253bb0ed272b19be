// ESLint: the recommended rules of ESLint and typescript-eslint (not the type-checked sets, so `npm run lint`
// stays fast and any well-written TypeScript passes) plus the classic React hooks rules for the client.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-server/**', 'data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
    rules: {
      // A leading underscore marks a value left out on purpose (`{ omitted: _, ...rest }`, unused callback parameters).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'scripts/bench-form/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // Only the two classic hooks rules: the other rules of the plugin's v7 "recommended" set (set-state-in-effect,
    // refs, immutability, static-components, ...) check what the React Compiler needs, and this app does not use the
    // compiler; they flag ordinary patterns such as resetting local state when a prop changes.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // react-bootstrap names a header's close button 'Close': every dialog says it in Italian, as the rest of the app.
      'no-restricted-syntax': ['error', {
        selector: "JSXOpeningElement[name.object.name='Modal'][name.property.name='Header']:has(JSXAttribute[name.name='closeButton']):not(:has(JSXAttribute[name.name='closeLabel']))",
        message: 'Modal.Header with closeButton needs closeLabel="Chiudi".',
      }],
    },
  },
  {
    files: ['tests/**/*.ts'],
    // Tests read untyped JSON answers of the API and poke at them freely; the code under test stays typed.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
