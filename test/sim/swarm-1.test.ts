import { swarm } from "./swarm.ts";

swarm(1, 100);
