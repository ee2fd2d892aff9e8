export { appRouter, seatMount, type AppRouter, type SeatMount } from './routers';
export { createContext, createCallerFactory } from './init';
