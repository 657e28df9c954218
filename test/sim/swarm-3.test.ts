import { swarm } from "./swarm.ts";

swarm(201, 300);
