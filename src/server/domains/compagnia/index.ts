// Suppliers (issue 4); the contractual companies, mandate rows and assigned products load from domains/index.ts.
import './hooks.ts';
import './routes.ts';
