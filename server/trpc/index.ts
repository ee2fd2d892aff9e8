export { appRouter, type AppRouter } from './routers';
export { createContext, createCallerFactory } from './init';
